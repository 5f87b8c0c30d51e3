// Compile-time checks of gametab-web's declarations, run by `tsc -b` in
// the tests (the app does not import this file): each line below must
// keep failing to compile, or tsc reports the unused @ts-expect-error.
import { loadMurderPlan, MurderPlan, Rules, type MurderPlanErrorKind } from "gametab-web";

// @ts-expect-error A MurderPlan comes from loadMurderPlan, never from new.
export const plan = () => new MurderPlan();
// @ts-expect-error Rules come from loadRules or plan.rules, never from new.
export const rules = () => new Rules();
// @ts-expect-error The second argument is the options ({ signal, wasm }), not a module.
export const options = () => loadMurderPlan(undefined, new Uint8Array(8));
// @ts-expect-error The kinds are a closed list.
export const kind: MurderPlanErrorKind = "timeout";
