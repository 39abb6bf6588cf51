// V8 flags for the long-running app (desktop main process, browser-mode server). A young generation
// of 4 MB semi-spaces instead of V8's 16 MB keeps ~15–20 MB less resident in every phase of
// `scripts/measure-memory.ts` (the 10k-chat compression: 247 → 234 MB) at the cost of more, shorter
// scavenges. It must be given when the process starts: set at runtime it does not shrink the heap.
export const SERVER_V8_FLAGS = ['--max-semi-space-size=4']
