import { memo } from 'react'
import Markdown, { type Components, type Options } from 'react-markdown'
import rehypeHighlight from 'rehype-highlight'
import remarkGfm from 'remark-gfm'
import { CodeBlock } from './code-block'

const remarkPlugins: Options['remarkPlugins'] = [remarkGfm]
// Only blocks that name their language are highlighted: guessing is slow and often wrong.
const rehypePlugins: Options['rehypePlugins'] = [[rehypeHighlight, { detect: false }]]

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
export const MarkdownText = memo(function MarkdownText(props: { text: string; className?: string; streaming?: boolean }) {
  const { text, className, streaming } = props
  return (
    <div className={className ? `markdown ${className}` : 'markdown'} data-streaming={streaming || undefined}>
      <Markdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components}>
        {text}
      </Markdown>
    </div>
  )
})
