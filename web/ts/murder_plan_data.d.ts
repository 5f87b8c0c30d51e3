// The data bundle the package carries, as base64 parts (written by
// `scripts/build-web --pack` into dist/murder_plan_data.js and
// murder_plan_data_N.js): JavaScript modules, so that every bundler and
// dev server resolves them, each part under Vite's 500 kB chunk warning
// and downloaded in parallel.
declare const parts: () => Promise<string[]>;
export default parts;
