import { describe, expect, it } from 'vitest'
import { isEmbeddingModel } from './embedding-models'

describe('isEmbeddingModel', () => {
  it.each([
    'nomic-embed-text',
    'nomic-embed-text:latest',
    'text-embedding-3-small',
    'text-embedding-ada-002',
    'mxbai-embed-large',
    'snowflake-arctic-embed:335m',
    'bge-m3',
    'bge-large:335m',
    'BAAI/bge-small-en-v1.5',
    'bge-reranker-v2-m3',
    'all-minilm',
    'all-minilm:l6-v2',
    'sentence-transformers/all-MiniLM-L6-v2',
    'granite-embedding:278m',
    'Qwen/Qwen3-Embedding-8B',
    'intfloat/multilingual-e5-large',
    'gte-large',
    'text-embedding-nomic-embed-text-v1.5'
  ])('knows %s is not a chat model', (id) => {
    expect(isEmbeddingModel(id)).toBe(true)
  })

  it.each([
    'gpt-4o',
    'fake-small',
    'llama3.2:latest',
    'qwen2.5vl:7b',
    'qwen3:8b',
    'mistral-nemo',
    'gemma3:27b',
    'deepseek-r1:14b',
    'phi4-mini',
    'command-r7b',
    'openhermes',
    'hermes3:8b',
    'mixtral:8x7b',
    'codegemma',
    'claude-sonnet-4-5'
  ])('offers %s as a chat model', (id) => {
    expect(isEmbeddingModel(id)).toBe(false)
  })
})
