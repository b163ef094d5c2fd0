import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig(({ command }) => {
  // A build is always a production build, even when started from a test runner (NODE_ENV=test).
  if (command === 'build') process.env.NODE_ENV = 'production';
  return {
    plugins: [react()],
    server: { proxy: { '/store/api': 'http://localhost:3000', '/api': 'http://localhost:3000' } },
    build: { outDir: 'dist', sourcemap: false, chunkSizeWarningLimit: 1500 },
  };
});
