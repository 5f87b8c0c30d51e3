//! gametab-web: the Murder Plan rules (`gametab-games`) and the Murder
//! Plan lookup (`gametab-lookup`, without Parquet) compiled to
//! WebAssembly with wasm-bindgen, so that a web app plays the game and its
//! optimal strategies in the browser with no server: the same Rust code
//! as the native side, not a port.
//!
//! - [`MurderPlan`] decodes the browser bundle (`murder_plan_browser.bin.gz`
//!   of a table set, gzip or already inflated) into the lookup crate's own `MurderPlanTables` and
//!   answers its queries: value, gap, reachability, both strategies,
//!   sampling, the value of every move, the brain's choice, win rates.
//! - [`rules`]: legal actions, the turn's transition, the brain's legal
//!   choices and their effect, the win test, the starts.
//! - [`Rng`]: a seeded generator of the uniform numbers the sampling
//!   takes, so a game against the stored strategies replays exactly.
//!
//! The calls are shaped for JavaScript and speed: a state is its dense
//! index (`State::index`, 0..3840), an action its byte code
//! (`gametab_games::murder_plan::codes`), a side [`Side`], lists come back
//! as typed arrays, and every refusal is an `Err` of [`Refusal`]: a kind
//! a program branches on and the lookup's own message (thrown to
//! JavaScript as that object). The typed wrapper of the npm
//! package (`web/ts/index.ts`) turns them into objects with the game's
//! words. Nothing here touches JavaScript values itself, so the host build
//! of this crate (`cargo test`) runs the very functions the module
//! exports.

mod lookup;
mod refusal;
mod rng;
pub mod rules;

pub use lookup::MurderPlan;
pub use refusal::{Kind, Refusal};
pub use rng::Rng;
pub use rules::Side;
