import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The bundle takes the contract's zod-free runtime view (scripts/gen-web-contract.ts, made by the
// build script first): paths, constants and messages, no schema. Types still come from the contract.
const webContract = path.resolve(import.meta.dirname, '../../packages/contract/src/web.gen.js');

export default defineConfig(({ command }) => {
  // A build is always a production build, even when started from a test runner (NODE_ENV=test).
  if (command === 'build') process.env.NODE_ENV = 'production';
  return {
    plugins: [react()],
    resolve: command === 'build' ? { alias: [{ find: /^@studio\/contract$/, replacement: webContract }] } : {},
    server: { proxy: { '/store/api': 'http://localhost:3000', '/api': 'http://localhost:3000' } },
    build: {
      outDir: 'dist',
      sourcemap: false,
      chunkSizeWarningLimit: 1500,
      rollupOptions: {
        // Files are named by their content hash alone: each name appears in every chunk importing it
        // and in the entry's preload table, so a module's name in it cost 1.7 KB on the first load's
        // wire (bench/web-first-load.ts, 251.2 -> 249.5 KB). Served from /assets/, cached a year.
        output: {
          entryFileNames: 'assets/[hash].js',
          chunkFileNames: 'assets/[hash].js',
          assetFileNames: 'assets/[hash][extname]',
        },
      },
    },
  };
});
