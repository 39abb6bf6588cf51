import { createAnthropic } from '@ai-sdk/anthropic'
import { createGoogleGenerativeAI } from '@ai-sdk/google'
import { createOpenAI } from '@ai-sdk/openai'
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import type { LanguageModel } from 'ai'
import type { ProviderId } from '../../shared/domain/provider'

export interface ProviderConnection {
  provider: ProviderId
  apiKey?: string
  baseURL?: string
}

/** The AI SDK model for a provider and model id, pointed at the configured endpoint. */
export function createLanguageModel(connection: ProviderConnection, modelId: string): LanguageModel {
  const { apiKey, baseURL } = connection
  switch (connection.provider) {
    case 'openai':
      // Chat completions: the request format our token counts reproduce exactly.
      return createOpenAI({ apiKey, baseURL }).chat(modelId)
    case 'anthropic':
      return createAnthropic({ apiKey, baseURL })(modelId)
    case 'google':
      return createGoogleGenerativeAI({ apiKey, baseURL })(modelId)
    case 'openai-compatible':
      return createOpenAICompatible({
        name: 'openai-compatible',
        baseURL: baseURL ?? 'http://127.0.0.1:11434/v1',
        apiKey,
        // Without it servers such as Ollama send no usage at the end of a stream.
        includeUsage: true
      })(modelId)
  }
}
