-- The console's overview charts (docs/decisions.md, "Overview charts"): per
-- hour counts by organization and metric. hour is the Unix time (seconds) of
-- the hour's start in UTC; bucket is -1 for a plain count, else the index of
-- a latency histogram bucket (models.LatencyBuckets). Every instance adds to
-- the rows with an UPSERT, so the counts of several instances merge.
-- Organization 0 is "no organization" (an API request without a valid token);
-- organization -1 holds the sum over all of them, added to with each count,
-- so the overview of every organization reads as few rows as one's. The key
-- starts with (metric, organization_id, hour): each chart is one range.
-- No foreign key: the figures outlive what they count.
-- markup_rooms_expires serves the rooms that expired on each day.

-- +goose Up
CREATE TABLE metric_rollups (
    metric          text    NOT NULL,
    hour            integer NOT NULL,
    organization_id integer NOT NULL,
    bucket          integer NOT NULL,
    count           integer NOT NULL,
    PRIMARY KEY (metric, organization_id, hour, bucket)
) WITHOUT ROWID;
CREATE INDEX metric_rollups_hour ON metric_rollups (hour);
CREATE INDEX markup_rooms_expires ON markup_rooms (expires_at);

-- +goose Down
DROP INDEX markup_rooms_expires;
DROP TABLE metric_rollups;
