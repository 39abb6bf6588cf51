import { resolve } from 'node:path'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'electron-vite'

// One build, main-process entries for the Electron shell, the browser-mode server and the CLI, which
// run the same bundled code (DESIGN §9), and for the summary worker thread.
export default defineConfig({
  main: {
    build: {
      rolldownOptions: {
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          cli: resolve(__dirname, 'src/main/cli/index.ts'),
          // Extractive summaries run on a worker thread (src/main/workers/summary/extractive-thread.ts).
          'extractive-worker': resolve(__dirname, 'src/main/workers/summary/extractive-worker.ts'),
          // Large chat imports are read and written on a worker thread (src/main/imports/import-thread.ts).
          'import-worker': resolve(__dirname, 'src/main/imports/import-worker.ts'),
          // PDFs are read on a thread of their own, within limits (src/main/attachments/pdf/pdf-thread.ts).
          'pdf-worker': resolve(__dirname, 'src/main/attachments/pdf/pdf-worker.ts'),
          // The write-ahead log is checkpointed on a thread of its own (src/main/workers/checkpoint/checkpoint-thread.ts).
          'checkpoint-worker': resolve(__dirname, 'src/main/workers/checkpoint/checkpoint-worker.ts')
        }
      }
    }
  },
  preload: {
    build: {
      rolldownOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') }
      }
    }
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    build: {
      // The page is served from disk or 127.0.0.1, but a smaller bundle still parses and starts faster.
      minify: true,
      rolldownOptions: {
        input: resolve(__dirname, 'src/renderer/index.html')
      }
    },
    plugins: [react()]
  }
})
