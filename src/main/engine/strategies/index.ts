/** The compression strategies (DESIGN §5) side by side: see README.md. */
export * from './rolling/plan-compression'
export * from './summarize'
export * from './tiered'
export * from './importance'
