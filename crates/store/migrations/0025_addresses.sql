-- Ply Yard schema, version 25: the addresses accounts are seen on, for
-- the moderators.
--
-- `account_addresses`: each address (the client key: an IPv4 address, or
-- an IPv6 /64) an account signed up or logged in from, first and last
-- seen. Deleted with the account.
CREATE TABLE account_addresses (
    player_id  TEXT NOT NULL REFERENCES players (id),
    address    TEXT NOT NULL,
    first_seen BIGINT NOT NULL,
    last_seen  BIGINT NOT NULL,
    PRIMARY KEY (player_id, address)
);

CREATE INDEX account_addresses_address ON account_addresses (address);

-- Rated games between two accounts seen on one address (rating farming,
-- or a club or a school sharing one): marked in the transaction that
-- rates the game, never refused; shown to the moderators.
CREATE TABLE shared_address_games (
    game_id    TEXT PRIMARY KEY,
    white_id   TEXT NOT NULL,
    black_id   TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

CREATE INDEX shared_address_games_white ON shared_address_games (white_id, created_at);
CREATE INDEX shared_address_games_black ON shared_address_games (black_id, created_at);
