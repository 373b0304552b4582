# syntax=docker/dockerfile:1
# Markup Room: static Go binary in a small non-root image.

FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# Pure-Go SQLite: no cgo, fully static binary.
RUN CGO_ENABLED=0 GOOS=linux go build -trimpath -ldflags="-s -w" -o /out/markuproom ./cmd/markuproom \
 && mkdir -p /out/data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/markuproom /usr/local/bin/markuproom
COPY --from=build --chown=nonroot:nonroot /out/data /data
ENV MARKUPROOM_DATA_DIR=/data \
    MARKUPROOM_ADDR=:8080
VOLUME ["/data"]
EXPOSE 8080
USER nonroot:nonroot
ENTRYPOINT ["/usr/local/bin/markuproom"]
CMD ["serve"]
