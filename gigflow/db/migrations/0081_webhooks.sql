-- Webhooks (gigflow.delivery.webhooks): each receiver follows the change feed from its own position; a batch is
-- POSTed signed (HMAC-SHA256 with the receiver's secret) and the position moves only when the receiver says 2xx.
CREATE TABLE api_webhooks (
    id                 bigserial PRIMARY KEY,
    name               text NOT NULL UNIQUE,
    url                text NOT NULL,
    secret             text NOT NULL,             -- the HMAC key: signing needs it in clear (like any webhook)
    position           text NOT NULL,             -- feed position after the last batch the receiver accepted
    failures           integer NOT NULL DEFAULT 0, -- attempts failed in a row
    last_error         text,
    last_delivered_at  timestamptz,
    created_at         timestamptz NOT NULL DEFAULT now()
);
