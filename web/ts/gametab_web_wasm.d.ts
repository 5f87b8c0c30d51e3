// The WebAssembly module as base64 text (written by scripts/build-web
// into dist/gametab_web_wasm.js): a JavaScript module, so that every
// bundler and dev server resolves it.
declare const wasm: string;
export default wasm;
