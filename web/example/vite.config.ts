// The app's whole Vite configuration: React, and nothing for gametab-web
// (no WebAssembly plugin, no optimizeDeps exclusion, no copied assets).
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

export default defineConfig({
  plugins: [react()],
});
