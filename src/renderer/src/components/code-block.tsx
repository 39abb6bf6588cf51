import { useEffect, useRef, useState, type ComponentProps } from 'react'
import type { ExtraProps } from 'react-markdown'
import { copyText } from '../lib/copy-text'
import './code-block.css'

/** The language a fenced block names (`language-ts` on its <code>), from the Markdown tree. */
function languageOf(node: ExtraProps['node']): string | null {
  const code = node?.children.find((child) => child.type === 'element' && child.tagName === 'code')
  if (!code || code.type !== 'element') return null
  const classes: unknown = code.properties.className
  const list: string[] = Array.isArray(classes)
    ? classes.map(String)
    : typeof classes === 'string'
      ? classes.split(' ')
      : []
  const language = list.find((c) => c.startsWith('language-'))
  return language ? language.slice('language-'.length) : null
}

/** A fenced code block: highlighted by rehype-highlight, with its language and a Copy button. */
export function CodeBlock({ node, children, ...props }: ComponentProps<'pre'> & ExtraProps) {
  const preRef = useRef<HTMLPreElement>(null)
  const [copied, setCopied] = useState(false)
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const language = languageOf(node)

  useEffect(() => () => clearTimeout(timer.current), [])

  async function copy() {
    const text = preRef.current?.textContent ?? ''
    if (!(await copyText(text))) return
    setCopied(true)
    clearTimeout(timer.current)
    timer.current = setTimeout(() => setCopied(false), 1600)
  }

  return (
    <div className="code-block">
      <div className="code-block-bar">
        <span className="code-block-language">{language ?? 'code'}</span>
        <button type="button" className="code-block-copy" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      {/* Focusable, so a long line can be scrolled with the keyboard. */}
      <pre ref={preRef} tabIndex={0} {...props}>
        {children}
      </pre>
    </div>
  )
}
