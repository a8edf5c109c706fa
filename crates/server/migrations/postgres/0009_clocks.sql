-- PostgreSQL form of ../0009_clocks.sql.
-- Clocks and auto-roll. A table's time control (JSON: initial_s,
-- increment_s, delay_s, per_game_s; NULL: no clock, the inactivity rule
-- alone); per action, the milliseconds its seat took (NULL: played by the
-- server, or no clock) and every seat's milliseconds left after it (JSON
-- array; NULL without a clock); per seat, when the server rolls for it at
-- a cube decision (ask, useless, always).
ALTER TABLE game_tables ADD COLUMN clock TEXT;
ALTER TABLE actions ADD COLUMN think_ms BIGINT;
ALTER TABLE actions ADD COLUMN clock TEXT;
ALTER TABLE seats ADD COLUMN auto_roll TEXT NOT NULL DEFAULT 'useless';
