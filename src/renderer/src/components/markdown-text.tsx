import { memo, useMemo, useSyncExternalStore } from 'react'
import Markdown, { type Components, type Options } from 'react-markdown'
import remarkBreaks from 'remark-breaks'
import remarkGfm from 'remark-gfm'
import { CodeBlock } from './code-block'
import './markdown-text.css'

const remarkPlugins: Options['remarkPlugins'] = [remarkGfm]
/** What a person typed: every line break they made stays a line break. */
const typedPlugins: Options['remarkPlugins'] = [remarkGfm, remarkBreaks]
/**
 * Syntax highlighting (highlight.js and its languages, most of the bundle) loads after the first
 * paint, in its own chunk: code shows plain until then, and every message re-renders highlighted.
 * Only blocks that name their language are highlighted: guessing is slow and often wrong.
 */
let rehypePlugins: Options['rehypePlugins'] = []
const listeners = new Set<() => void>()
/** Resolves once code is highlighted (the highlighter's chunk has loaded). */
export const highlighterLoaded: Promise<void> = import('rehype-highlight').then(({ default: rehypeHighlight }) => {
  // One highlighter for every message: the plugin builds a highlight.js instance (registering and
  // later compiling every language) each time it is attached, and react-markdown attaches its
  // plugins on every render, which cost ~3 ms a message.
  const highlight = rehypeHighlight({ detect: false })
  rehypePlugins = [() => highlight]
  for (const listener of listeners) listener()
})
function useRehypePlugins(): Options['rehypePlugins'] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    () => rehypePlugins
  )
}

const components: Components = {
  pre: CodeBlock,
  a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noreferrer noopener" />,
  table: ({ node: _node, ...props }) => (
    <div className="markdown-table" tabIndex={0}>
      <table {...props} />
    </div>
  )
}

/**
 * Markdown as a message shows it: GitHub-flavoured (tables, task lists, strikethrough), code
 * highlighted. Raw HTML is never rendered.
 */
export const MarkdownText = memo(function MarkdownText(props: {
  text: string
  className?: string
  streaming?: boolean
  /** Typed by the user: single line breaks are kept. */
  typed?: boolean
  /** Elements drawn otherwise (a summary's lines with their sources); stable between renders. */
  components?: Components
}) {
  const { text, className, streaming, typed, components: own } = props
  const highlight = useRehypePlugins()
  const merged = useMemo(() => (own ? { ...components, ...own } : components), [own])
  return (
    <div className={className ? `markdown ${className}` : 'markdown'} data-streaming={streaming || undefined}>
      <Markdown remarkPlugins={typed ? typedPlugins : remarkPlugins} rehypePlugins={highlight} components={merged}>
        {text}
      </Markdown>
    </div>
  )
})
