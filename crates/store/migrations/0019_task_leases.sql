-- Ply Yard schema, version 19: leases of a cluster's singleton tasks (the
-- tournament director). One node at a time runs a task named here: the
-- one holding its lease (`expires_at`, in Unix milliseconds of the
-- database's clock, renewed every tick). Each taking from another node, or
-- after expiry, raises `epoch`. A node running alone never takes one.

CREATE TABLE task_leases (
    name       TEXT PRIMARY KEY,
    node_id    TEXT NOT NULL,
    epoch      BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
