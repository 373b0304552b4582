-- Rate limits: one token bucket per key (an API token, a room session, a
-- client address, an upload counter), shared by every server instance.
-- tokens is the bucket's content at updated_us (microseconds since the Unix
-- epoch, from the server's clock); rate and burst are the policy it was last
-- taken under; allowed tells whether that last take got a token.
-- WITHOUT ROWID: the key is the one b-tree, so a take writes one page, not two.

-- +goose Up
CREATE TABLE rate_limits (
    bucket_key text    PRIMARY KEY,
    tokens     real    NOT NULL,
    rate       real    NOT NULL,
    burst      real    NOT NULL,
    updated_us integer NOT NULL,
    allowed    boolean NOT NULL
) WITHOUT ROWID;

-- +goose Down
DROP TABLE rate_limits;
