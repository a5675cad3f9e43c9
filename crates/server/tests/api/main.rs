//! The server's integration tests, one binary: each module drives a real
//! server (`plyyard_testkit::TestServer`) over HTTP and websockets, on SQLite and,
//! with `PLYYARD_TEST_PG`, on PostgreSQL. One binary links once.

mod accounts;
mod analysis;
mod chat;
mod cluster;
mod cluster_limits;
mod cluster_live;
mod cluster_nodes;
mod exercises;
mod fair_play;
mod games;
mod guards;
mod learn;
mod lichess_challenges;
mod lichess_play;
mod lichess_tokens;
mod moderation;
mod positions;
mod ratings;
mod review;
mod security;
mod seeks;
mod site;
mod support;
mod tables;
mod two_servers;
