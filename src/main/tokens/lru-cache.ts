/** A bounded Map that evicts the least recently used entry (Map keeps insertion order). */
export class LruCache<K, V> {
  private readonly map = new Map<K, V>()
  constructor(private readonly maxEntries: number) {
    if (!(maxEntries >= 1)) throw new RangeError('maxEntries must be at least 1')
  }
  get(key: K): V | undefined {
    const value = this.map.get(key)
    if (value !== undefined) {
      this.map.delete(key)
      this.map.set(key, value)
    }
    return value
  }
  set(key: K, value: V): void {
    this.map.delete(key)
    this.map.set(key, value)
    if (this.map.size > this.maxEntries) this.map.delete(this.map.keys().next().value as K)
  }
  /** The values, least recently used first (without marking them used). */
  values(): IterableIterator<V> {
    return this.map.values()
  }
  get size(): number {
    return this.map.size
  }
  clear(): void {
    this.map.clear()
  }
}
