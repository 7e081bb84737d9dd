/** A binary min-heap by `expiresAt`: what runs out first comes out first. */
export class ExpiryQueue<T extends { expiresAt: number }> {
  private readonly heap: T[] = []

  push(item: T): void {
    const heap = this.heap
    heap.push(item)
    let i = heap.length - 1
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (heap[parent]!.expiresAt <= item.expiresAt) break
      heap[i] = heap[parent]!
      i = parent
    }
    heap[i] = item
  }

  /** Removes and returns the first item whose expiresAt is at or before `at`. */
  popDue(at: number): T | undefined {
    const heap = this.heap
    const top = heap[0]
    if (top === undefined || top.expiresAt > at) return undefined
    const last = heap.pop()!
    if (heap.length > 0) {
      let i = 0
      for (;;) {
        const left = 2 * i + 1
        if (left >= heap.length) break
        const right = left + 1
        const child =
          right < heap.length && heap[right]!.expiresAt < heap[left]!.expiresAt ? right : left
        if (heap[child]!.expiresAt >= last.expiresAt) break
        heap[i] = heap[child]!
        i = child
      }
      heap[i] = last
    }
    return top
  }

  get size(): number {
    return this.heap.length
  }
}
