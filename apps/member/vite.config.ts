import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The members' phone page, served at /m/ by the same server: its own small bundle. Like the admin,
// the build takes the contract's zod-free runtime view (paths, constants, messages).
const webContract = path.resolve(import.meta.dirname, '../../packages/contract/src/web.gen.js');

export default defineConfig(({ command }) => {
  if (command === 'build') process.env.NODE_ENV = 'production';
  return {
    base: '/m/',
    plugins: [react()],
    resolve: command === 'build' ? { alias: [{ find: /^@studio\/contract$/, replacement: webContract }] } : {},
    server: { proxy: { '/member/api': 'http://localhost:3000' } },
    build: { outDir: 'dist', sourcemap: false },
  };
});
