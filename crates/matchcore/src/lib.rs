//! Kestrel's match core: what every way of playing games shares, whether
//! the players are child processes (`kestrel match`, SPSA) or searchers in
//! this process (the arena, ablation, the GA, datagen): the player trait
//! both kinds implement, the one game loop and how games end, the openings
//! games start from, clocks and search limits, the adjudication rules, engine child
//! processes with their reader threads, and the progress bars.

pub mod adjudication;
pub mod ending;
pub mod engine_process;
pub mod game_loop;
pub mod openings;
pub mod player;
#[cfg(feature = "progress")]
pub mod progress;
pub mod random_openings;
pub mod search_limits;
pub mod time_control;
pub mod worker_pool;
