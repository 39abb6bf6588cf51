/** Content terms of a sentence: what novelty, rarity and focus matching compare. */

export const STOPWORDS = new Set(
  (
    'a an the and or but if then else of to in on at by for with from into onto over under about as is are was were be been being ' +
    'am do does did doing have has had having i me my mine we us our ours you your yours he him his she her hers it its they them ' +
    'their theirs this that these those there here what which who whom whose when where why how all any both each few more most ' +
    'other some such no nor not only own same so than too very can could will would shall should may might must just also still ' +
    'up down out off again further once now well really quite bit lot get got go going gone make made let lets yes yeah ok okay ' +
    'oh one two thing things way like think know want need see sure maybe actually probably something anything everything ' +
    "i'm i've i'll i'd you're you've you'll we're we've we'll it's that's there's don't doesn't didn't can't won't isn't aren't"
  ).split(/\s+/)
)

const WORD = /[A-Za-z0-9$€£][A-Za-z0-9_'’.$€£,:/-]*[A-Za-z0-9%]|[A-Za-z0-9]/g

/** A light stem so "deadline"/"deadlines" and "booking"/"booked" meet; identifiers and numbers stay whole. */
function stem(word: string): string {
  if (/[0-9_./:$€£]/.test(word) || word.length <= 4) return word
  if (word.endsWith('ss')) return word
  return word.replace(/(?:ing|ed|s)$/, '').replace(/(.)\1$/, '$1')
}

export function terms(text: string): string[] {
  const out = new Set<string>()
  for (const m of text.matchAll(WORD)) {
    const w = m[0]
      .toLowerCase()
      .replace(/['’]s$/, '')
      .replace(/[.,:]+$/, '')
    if (w.length < 2 || STOPWORDS.has(w)) continue
    out.add(stem(w))
  }
  return [...out]
}

/** Interns terms as small integers so sets compare fast. */
export class TermTable {
  private readonly ids = new Map<string, number>()
  readonly df: number[] = []

  intern(list: readonly string[]): number[] {
    return list.map((t) => {
      let id = this.ids.get(t)
      if (id === undefined) {
        id = this.df.length
        this.ids.set(t, id)
        this.df.push(0)
      }
      return id
    })
  }

  /** Counts document frequency: call once per unit with its unique ids. */
  count(ids: readonly number[]): void {
    for (const id of ids) this.df[id] = (this.df[id] ?? 0) + 1
  }

  lookup(term: string): number | undefined {
    return this.ids.get(term)
  }
}
