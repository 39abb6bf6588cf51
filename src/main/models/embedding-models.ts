/**
 * Model ids that name an embedding (or reranking) model rather than one that chats: what local
 * servers list beside their chat models (Ollama's nomic-embed-text, mxbai-embed-large, all-minilm,
 * bge-m3; OpenAI's text-embedding-3-small; LM Studio's text-embedding-nomic-embed-text-v1.5). A
 * request to chat with one fails, so they are never offered for a chat.
 */
const EMBEDDING_PATTERNS: readonly RegExp[] = [
  /embed/, // embed, embedding(s): nomic-embed-text, text-embedding-3-small, qwen3-embedding
  /rerank/, // bge-reranker-v2-m3, jina-reranker
  /minilm/, // all-minilm, paraphrase-multilingual-MiniLM
  /sentence-transformers\//,
  // Families named by their first word: bge-m3, BAAI/bge-large-en-v1.5, gte-large, multilingual-e5-large.
  /(?:^|[/:_-])(?:bge|gte|e5)(?:[-_:.]|$)/
]

export function isEmbeddingModel(modelId: string): boolean {
  const id = modelId.toLowerCase()
  return EMBEDDING_PATTERNS.some((pattern) => pattern.test(id))
}
