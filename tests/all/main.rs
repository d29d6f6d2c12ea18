//! The integration tests, one test binary with a module per area (issue 16, item 13: one
//! binary links the library once, where 22 binaries each linked it). Run one area with
//! `cargo test --test all cli::`, one test with `cargo test --test all cli::NAME`.
//!
//! A new test file goes into this folder as a module: add `mod NAME;` below; the shared
//! helpers are `crate::common`.

mod anytime;
mod checkpoint;
mod cli;
mod cli_tb;
mod common;
mod fresh_session9;
mod fresh_trial;
mod fresh_trial12;
mod fresh_trial13;
mod fresh_trial14;
mod fresh_trial16;
mod fresh_trial23;
mod fresh_user;
mod game_record;
mod kalah;
mod kalah_acyclic;
mod kiothi_naive;
mod kiothi_positions;
mod kiothi_props;
mod kiothi_rules;
mod layers;
mod naive_sower;
mod perft;
mod positions;
mod properties;
mod retro_cap;
mod rules_giuthi;
mod rules_kalah;
mod rules_trace;
mod server_api;
mod server_browser;
mod solve_pv;
mod solve_race;
mod solve_tb;
mod solver_lean;
mod solver_naive;
mod solver_retro;
mod tablebase;
mod tb_stream;
mod threads;
