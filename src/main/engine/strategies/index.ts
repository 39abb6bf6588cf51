/** Compression strategies besides the rolling summary (DESIGN §5): see README.md. */
export * from './summarize'
export * from './tiered'
export * from './importance'
