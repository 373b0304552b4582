// A mail catcher for browser tests: a plain SMTP server on 127.0.0.1 (no
// TLS, no authentication) that keeps every message it receives, parsed
// enough to read an invitation (README, "Invitation e-mails":
// MARKUPROOM_SMTP_URL=smtp://127.0.0.1:PORT). Never expose it.
import net from "node:net";

/** Starts the catcher; resolves with {url, messages, waitFor(n), close()}. */
export function startMailCatcher() {
  const messages = [];
  const server = net.createServer((sock) => {
    sock.setEncoding("latin1"); // bytes as they came; decoded per part below
    let buf = "";
    let data = null; // the DATA being received, else null
    let envelope = { from: "", to: [] };
    const reply = (line) => sock.write(line + "\r\n");
    reply("220 127.0.0.1 mail catcher");
    sock.on("data", (chunk) => {
      buf += chunk;
      for (;;) {
        if (data !== null) {
          const end = buf.indexOf("\r\n.\r\n");
          const start = data === "" && buf.startsWith(".\r\n") ? 0 : -1;
          if (end < 0 && start < 0) return;
          const body = start === 0 ? "" : buf.slice(0, end);
          buf = buf.slice(start === 0 ? 3 : end + 5);
          messages.push({ ...envelope, ...parseMessage(body.replace(/^\.\./gm, ".")) });
          envelope = { from: "", to: [] };
          data = null;
          reply("250 2.0.0 kept");
          continue;
        }
        const nl = buf.indexOf("\r\n");
        if (nl < 0) return;
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "EHLO") reply("250-127.0.0.1\r\n250-8BITMIME\r\n250-SMTPUTF8\r\n250 PIPELINING");
        else if (verb === "HELO") reply("250 127.0.0.1");
        else if (verb === "MAIL") (envelope.from = /<([^>]*)>/.exec(line)?.[1] || ""), reply("250 2.1.0 ok");
        else if (verb === "RCPT") envelope.to.push(/<([^>]*)>/.exec(line)?.[1] || ""), reply("250 2.1.5 ok");
        else if (verb === "DATA") (data = ""), reply("354 end with <CRLF>.<CRLF>");
        else if (verb === "RSET") (envelope = { from: "", to: [] }), reply("250 2.0.0 ok");
        else if (verb === "NOOP") reply("250 2.0.0 ok");
        else if (verb === "QUIT") reply("221 2.0.0 bye"), sock.end();
        else reply("502 5.5.2 not implemented");
      }
    });
    sock.on("error", () => {});
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      resolve({
        url: `smtp://127.0.0.1:${port}`,
        messages,
        /** Resolves with the messages once there are at least n (within timeout ms). */
        async waitFor(n, timeout = 60000) {
          const until = Date.now() + timeout;
          while (messages.length < n) {
            if (Date.now() > until) throw new Error(`${messages.length} of ${n} e-mails arrived`);
            await new Promise((r) => setTimeout(r, 200));
          }
          return messages;
        },
        close: () => server.close(),
      });
    }),
  );
}

/** Headers (names lower-cased, unfolded) and body of a MIME entity given as latin1 text. */
function splitEntity(raw) {
  const cut = raw.indexOf("\r\n\r\n");
  const head = cut < 0 ? raw : raw.slice(0, cut);
  const body = cut < 0 ? "" : raw.slice(cut + 4);
  const headers = {};
  for (const line of head.replace(/\r\n[ \t]+/g, " ").split("\r\n")) {
    const i = line.indexOf(":");
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return { headers, body };
}

/** Decodes a body by its Content-Transfer-Encoding into UTF-8 text. */
function decodeBody(body, encoding = "") {
  const e = encoding.toLowerCase();
  let bytes;
  if (e === "base64") bytes = Buffer.from(body.replace(/\s+/g, ""), "base64");
  else if (e === "quoted-printable") bytes = Buffer.from(body.replace(/=\r\n/g, "").replace(/=([0-9A-Fa-f]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16))), "latin1");
  else bytes = Buffer.from(body, "latin1");
  return bytes.toString("utf8");
}

/** Decodes RFC 2047 encoded-words in a header value. */
export function decodeHeader(value) {
  const raw = value.replace(/\?=\s+=\?/g, "?==?");
  const text = raw.replace(/=\?([^?]+)\?([bBqQ])\?([^?]*)\?=/g, (_, _charset, enc, s) =>
    enc.toUpperCase() === "B"
      ? Buffer.from(s, "base64").toString("latin1")
      : s.replace(/_/g, " ").replace(/=([0-9A-Fa-f]{2})/g, (_m, h) => String.fromCharCode(parseInt(h, 16))),
  );
  // The words were UTF-8 bytes (as latin1 code units); plain text around them is ASCII.
  return Buffer.from(text, "latin1").toString("utf8");
}

/** A message's headers and its text/plain and text/html parts (decoded). */
function parseMessage(raw) {
  const { headers, body } = splitEntity(raw);
  const out = { headers, subject: decodeHeader(headers.subject || ""), to_header: decodeHeader(headers.to || ""), text: "", html: "" };
  const walk = (h, b) => {
    const type = (h["content-type"] || "text/plain").toLowerCase();
    const boundary = /boundary="?([^";]+)"?/i.exec(h["content-type"] || "")?.[1];
    if (type.startsWith("multipart/") && boundary) {
      for (const part of b.split("--" + boundary).slice(1)) {
        if (part.startsWith("--")) break;
        const p = splitEntity(part.replace(/^\r\n/, ""));
        walk(p.headers, p.body);
      }
      return;
    }
    const text = decodeBody(b, h["content-transfer-encoding"]);
    if (type.startsWith("text/html")) out.html = text;
    else if (type.startsWith("text/plain")) out.text = text;
  };
  walk(headers, body);
  return out;
}
