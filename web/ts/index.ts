// gametab-web: the Murder Plan (Tragedy Looper) rules and its optimal
// strategies in the browser, with no server.
//
// A typed wrapper over the WebAssembly module that wasm-bindgen generates
// from the `web/` crate (gametab_web.js + gametab_web_bg.wasm): that module
// is the project's own Rust (the rules of gametab-games, the queries of
// gametab-lookup), taking states as dense indices and actions as byte
// codes for speed. The wrapper turns those into objects in the game's
// words (State, Action, Move), loads and shares the module and the
// bundles (load.ts), and turns every failure into a MurderPlanError with a
// kind (errors.ts); it computes nothing of the game itself.
//
//   const plan = await loadMurderPlan();          // the bundle the package carries
//   const start = plan.rules.starts()[1];
//   plan.value(8, start);                         // P(mastermind wins)
//   plan.strategy("protagonists", 8, start);      // [{action, probability}]

export { MurderPlanError, type MurderPlanErrorKind } from "./errors.js";
export {
  Rules,
  type Action, type Bit, type BrainChoice, type BrainTarget, type Card, type MastermindCard, type Move,
  type Offset, type Play, type ProtagonistCard, type Side, type State, type TurnResult,
} from "./rules.js";
export { MurderPlan, Random } from "./plan.js";
export {
  loadMurderPlan, loadMurderPlanSync, loadRules, loadRulesSync,
  type BundleSource, type LoadOptions, type WasmSource,
} from "./load.js";
