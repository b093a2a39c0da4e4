import OpenAI from 'openai';
import { z } from 'zod';
import { toSafeText } from '@app/contracts';
import type { Exchange, ExtractedMemory, KnownMemory, MemoryExtractor } from './memory-extractor';

const MAX_MEMORIES = 20;
const MAX_USER_CHARS = 8_000;
const MAX_ASSISTANT_CHARS = 4_000;

/** The answer the model must give (JSON Schema for structured outputs, strict mode). */
export const EXTRACTION_JSON_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['memories'],
  properties: {
    memories: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['text', 'subject', 'is_inference', 'is_fact'],
        properties: {
          text: { type: 'string', description: 'Short, third person, without the subject: "Lives in Lisbon".' },
          subject: {
            type: ['string', 'null'],
            description: 'What it is about (see the instructions); null if nothing could contradict it.',
          },
          is_inference: { type: 'boolean', description: 'True when you drew it rather than the user saying it.' },
          is_fact: { type: 'boolean', description: 'True for a fact about the user; false for a taste or a preference.' },
        },
      },
    },
  },
} as const;

/** The same answer, checked on our side: a model (or a server) that ignores the schema is caught here. */
const AnswerSchema = z.object({
  memories: z
    .array(
      z.object({
        text: z.string(),
        subject: z.string().nullable(),
        is_inference: z.boolean(),
        is_fact: z.boolean(),
      }),
    )
    .max(100),
});

export const EXTRACTION_INSTRUCTIONS = [
  'You keep the long-term memories of a personal assistant about its user.',
  'From the exchange you are given, list what is worth remembering about the USER: facts they state about themselves',
  '(where they live, family and pets with names, job and employer, diet, allergies and health constraints, name, age,',
  'birthday, languages) and lasting tastes and preferences. Also list inferences you can reasonably draw from what they',
  'said (is_inference: true), such as "Is a parent" from "my daughter".',
  'Leave out: other people\'s facts ("my friend lives in Paris"), questions, wishes, plans and hypotheticals, one-off',
  'requests, anything about the assistant, general knowledge, and anything the user denies.',
  'Write each memory as a short third-person sentence without a subject: "Lives in Lisbon", "Has a daughter named Ana",',
  '"Is vegetarian", "Works as a nurse", "Loves jazz".',
  'Give each a subject key, lower case: home, origin, name, age, birthday, diet, occupation, employer,',
  'relationship_status, relation:spouse, relation:partner, relation:mother, relation:father,',
  'relation:<daughter|son|brother|sister>:<name>, pet:<kind>, allergy:<thing>, language:<language>,',
  'preference:<thing>, favourite:<kind>, inference:<what>, or another short key of the same form.',
  'When a known memory is about the same thing, reuse its subject exactly: a correction ("I moved to Porto" after',
  '"Lives in Lisbon") replaces it. Do not repeat known memories unchanged, and never restate one with less detail',
  '("Has a dog" when "Has a dog named Rex" is known): a question about a known memory changes nothing.',
  'Answer with an empty list when there is nothing to remember.',
].join(' ');

/** The exchange and what is known already, as the model reads them. */
export function extractionPrompt(exchange: Exchange, known: KnownMemory[]): string {
  const lines: string[] = [];
  lines.push('Known memories:', ...(known.length ? known.map((m) => `- [${m.subject ?? 'none'}] ${m.text}`) : ['(none)']), '');
  lines.push('The user wrote:', '<<<', exchange.userText.slice(0, MAX_USER_CHARS), '>>>', '');
  lines.push('The assistant answered:', '<<<', exchange.assistantText.slice(0, MAX_ASSISTANT_CHARS), '>>>');
  return lines.join('\n');
}

/** The model answered, but not with what was asked (not JSON, or not the schema). */
export class ExtractionAnswerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExtractionAnswerError';
  }
}

/** Checks and converts the model's JSON text. */
export function parseExtraction(text: string): ExtractedMemory[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ExtractionAnswerError('The model did not answer with JSON');
  }
  const answer = AnswerSchema.safeParse(json);
  if (!answer.success) throw new ExtractionAnswerError('The model answered outside the schema');
  return (
    answer.data.memories
      // The model's words are kept, less what cannot be stored (NUL, a lone surrogate).
      .map((m) => ({
        text: toSafeText(m.text).replace(/\s+/g, ' ').trim().slice(0, 500),
        subject: m.subject ? toSafeText(m.subject).trim() || null : null,
        isInference: m.is_inference,
        isFact: m.is_fact,
      }))
      .filter((m) => m.text.length > 0)
      .slice(0, MAX_MEMORIES)
  );
}

export interface ModelExtractorOptions {
  provider: 'openai' | 'openai-compatible';
  apiKey: string | undefined;
  baseURL: string | undefined;
  model: string;
  timeoutMs: number;
}

/**
 * Extraction by the configured model, as structured output: the Responses API's `text.format`
 * (OpenAI) or Chat Completions' `response_format` (any OpenAI-compatible server). A failed call
 * throws (the event is retried); an answer that is not what was asked throws ExtractionAnswerError.
 */
export class ModelExtractor implements MemoryExtractor {
  readonly name = 'model' as const;
  readonly usesKnownMemories = true;
  private readonly openai: OpenAI;

  constructor(private readonly options: ModelExtractorOptions) {
    this.openai = new OpenAI({
      apiKey: options.apiKey ?? 'not-needed',
      baseURL: options.baseURL,
      maxRetries: 1,
      timeout: options.timeoutMs,
    });
  }

  async extract(exchange: Exchange, known: KnownMemory[]): Promise<ExtractedMemory[]> {
    const prompt = extractionPrompt(exchange, known);
    if (this.options.provider === 'openai') {
      const response = await this.openai.responses.create({
        model: this.options.model,
        instructions: EXTRACTION_INSTRUCTIONS,
        input: prompt,
        text: { format: { type: 'json_schema', name: 'memories', schema: EXTRACTION_JSON_SCHEMA, strict: true } },
      });
      return parseExtraction(response.output_text);
    }
    const completion = await this.openai.chat.completions.create({
      model: this.options.model,
      messages: [
        { role: 'system', content: EXTRACTION_INSTRUCTIONS },
        { role: 'user', content: prompt },
      ],
      response_format: { type: 'json_schema', json_schema: { name: 'memories', schema: EXTRACTION_JSON_SCHEMA, strict: true } },
    });
    return parseExtraction(completion.choices[0]?.message?.content ?? '');
  }
}
