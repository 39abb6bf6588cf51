/**
 * Markdown as the plain text a reader sees, for one-line previews: no heading marks, emphasis,
 * code fences, link targets, list bullets, quote marks, table rules or HTML tags; whitespace collapsed.
 */
export function markdownToPlainText(markdown: string): string {
  return (
    markdown
      // Fenced code keeps its code, not the fence and language.
      .replace(/^ {0,3}(`{3,}|~{3,})[^\n]*$/gm, ' ')
      // Table separator rows and horizontal rules carry no words.
      .replace(/^ {0,3}\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/gm, ' ')
      .replace(/^ {0,3}([-*_])( *\1){2,} *$/gm, ' ')
      .replace(/^ {0,3}#{1,6}\s+/gm, '')
      .replace(/^ {0,3}(> ?)+/gm, '')
      .replace(/^ {0,3}([-*+]|\d{1,9}[.)])\s+(\[[ xX]\]\s+)?/gm, '')
      // Images keep their alt text, links their text; bare autolinks their address.
      .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
      .replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1')
      .replace(/<(https?:[^>\s]+)>/g, '$1')
      .replace(/<\/?[a-zA-Z][^>]*>/g, ' ')
      .replace(/`+([^`]*)`+/g, '$1')
      .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, '$2')
      .replace(/(^|[^\w*])[*_](?=\S)([^*_\n]*?\S)[*_](?=$|[^\w*])/g, '$1$2')
      .replace(/~~(?=\S)([\s\S]*?\S)~~/g, '$1')
      .replace(/\s*\|\s*/g, ' ')
      .replace(/\\([\\`*_{}[\]()#+\-.!|>~])/g, '$1')
      .replace(/\s+/g, ' ')
      .trim()
  )
}
