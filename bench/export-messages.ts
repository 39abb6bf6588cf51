/** The messages of a version 1 Distill export: `n` turns about a warehouse, each line said `repeat` times. */
export function exportMessages(n: number, repeat: number) {
  return Array.from({ length: n }, (_, i) => {
    const text = `Turn ${i}: ${`we moved ${i * 7} pallets to zone ${i % 97}, forklift ${i % 13} needs a check. `.repeat(repeat)}`
    return {
      role: i % 2 ? 'assistant' : 'user',
      content: text,
      id: `m${i}`,
      createdAt: 1_767_000_000_000 + i,
      status: 'complete',
      parts: [{ type: 'text', text }] as unknown[]
    }
  })
}
