import type { LlmSettings } from '../config.js';
import { DefaultExtractionEngine } from './default-engine.js';
import { InlineSchemaValidator, type SchemaValidator } from './schema-validator.js';
import type { ExtractionEngine, ExtractionInput, ExtractionOutcome } from './types.js';

const SYSTEM_PROMPT = [
  'You extract structured data from one web page.',
  'Answer with a single JSON object and nothing else.',
  'Use only facts stated on the page. When the page does not state a value, leave the property out',
  '(or use null where the schema allows null). Never invent values.',
  'Dates are ISO 8601; numbers are plain JSON numbers without currency signs or thousands separators.',
].join(' ');

/** Why a model answer was not used (kept for tests and logs; the caller only sees the fallback's outcome). */
export class ModelAnswerError extends Error {
  override readonly name = 'ModelAnswerError';
}

/** Options of the model-backed engine beyond {@link LlmSettings}. */
export interface ModelEngineOptions {
  /** Characters of page text sent to the model. */
  textBudget?: number;
  /** Called with the reason whenever the engine falls back (for logging). */
  onFallback?: (reason: string) => void;
  /** Checks answers against the schema (and is the fallback's too, when the engine makes its own). */
  schemas?: SchemaValidator;
  /**
   * Called after each schema-valid model answer with how it compares with the
   * default engine's answer on the same page (for logs and quality checks).
   * When given, the default engine runs beside the model on every page.
   */
  onComparison?: (comparison: EngineComparison) => void;
}

/** How a model answer compares with the default engine's, property by property (top level). */
export interface EngineComparison {
  url: string;
  /** Properties both answered with the same value. */
  agreed: string[];
  /** Properties both answered, with different values. */
  differed: { property: string; model: unknown; default: unknown }[];
  /** Properties only the model answered (the default engine found no evidence strong enough). */
  modelOnly: string[];
  /** Properties only the default engine answered. */
  defaultOnly: string[];
}

const answered = (value: unknown) => value !== null && value !== undefined;
/** Values compared as the scoring does: text trimmed, spacing collapsed, case ignored. */
const comparable = (value: unknown) =>
  typeof value === 'string' ? value.replace(/\s+/g, ' ').trim().toLowerCase() : JSON.stringify(value);

/** Compares two answers property by property. */
export function compareAnswers(
  url: string,
  model: Record<string, unknown>,
  fallback: Record<string, unknown>,
): EngineComparison {
  const comparison: EngineComparison = { url, agreed: [], differed: [], modelOnly: [], defaultOnly: [] };
  for (const property of new Set([...Object.keys(model), ...Object.keys(fallback)])) {
    const m = model[property];
    const d = fallback[property];
    if (answered(m) && answered(d)) {
      if (comparable(m) === comparable(d)) comparison.agreed.push(property);
      else comparison.differed.push({ property, model: m, default: d });
    } else if (answered(m)) comparison.modelOnly.push(property);
    else if (answered(d)) comparison.defaultOnly.push(property);
  }
  return comparison;
}

/**
 * Extraction through any OpenAI-compatible chat-completions endpoint. Sends
 * the page's evidence (title, meta tags, Readability's reading, JSON-LD) and
 * its main text (`pageText`) with the query and the schema, asks for JSON only
 * (`response_format: json_schema`), accepts a plain or ```json-fenced JSON
 * answer, and checks it against the schema. On any failure (HTTP error,
 * time-out, invalid JSON, an answer the schema rejects) it falls back to the
 * deterministic engine; the outcome's `engine` says which one answered.
 */
export class ModelExtractionEngine implements ExtractionEngine {
  private readonly fallback: ExtractionEngine;
  private readonly schemas: SchemaValidator;

  constructor(
    private readonly settings: LlmSettings,
    fallback?: ExtractionEngine,
    private readonly options: ModelEngineOptions = {},
  ) {
    this.schemas = options.schemas ?? new InlineSchemaValidator();
    this.fallback = fallback ?? new DefaultExtractionEngine(this.schemas);
  }

  /** Asks the model; falls back to the default engine on any failure. */
  async extract(input: ExtractionInput): Promise<ExtractionOutcome> {
    try {
      const onComparison = this.options.onComparison;
      const [data, fallback] = await Promise.all([
        this.ask(input),
        onComparison ? this.fallback.extract(input).catch(() => undefined) : undefined,
      ]);
      if (onComparison && fallback?.ok) onComparison(compareAnswers(input.url, data, fallback.data));
      return { ok: true, data, engine: 'model' };
    } catch (error) {
      if (input.signal?.aborted)
        return { ok: false, error: { code: 'cancelled', message: 'the extraction was cancelled' } };
      this.options.onFallback?.(error instanceof Error ? error.message : String(error));
      const outcome = await this.fallback.extract(input);
      return outcome.ok ? { ...outcome, engine: outcome.engine ?? 'default' } : outcome;
    }
  }

  /** One chat-completions round trip; throws {@link ModelAnswerError} on anything unusable. */
  async ask(input: ExtractionInput): Promise<Record<string, unknown>> {
    // Loaded on the first model call, not at every server's start: it reads the page with cheerio,
    // ~100 ms of CPU to import.
    const { DEFAULT_TEXT_BUDGET, pageText } = await import('./page-text.js');
    const reading = pageText(input.html, this.options.textBudget ?? DEFAULT_TEXT_BUDGET, {
      article: input.article,
      mainText: input.mainText,
    });
    const body = {
      model: this.settings.model,
      temperature: 0,
      messages: [
        { role: 'system', content: SYSTEM_PROMPT },
        { role: 'user', content: userPrompt(input, reading) },
      ],
      response_format: input.schema
        ? { type: 'json_schema', json_schema: { name: 'extraction', schema: input.schema, strict: false } }
        : { type: 'json_object' },
    };
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
    };
    if (this.settings.apiKey) headers.authorization = `Bearer ${this.settings.apiKey}`;
    // The time-out is the endpoint's: started once the request is ready, so a cold import of the
    // page reader (seconds on a loaded machine) does not count against the model.
    const signals = [AbortSignal.timeout(this.settings.timeoutMs)];
    if (input.signal) signals.push(input.signal);
    let response: Response;
    try {
      response = await fetch(`${this.settings.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: AbortSignal.any(signals),
      });
    } catch (error) {
      const timedOut =
        error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      throw new ModelAnswerError(
        timedOut ? 'the model did not answer in time' : `model request failed: ${String(error)}`,
      );
    }
    const text = await response.text().catch(() => '');
    if (!response.ok) throw new ModelAnswerError(`the model endpoint answered HTTP ${response.status}`);
    const content = messageContent(text);
    const data = parseJsonObject(content);
    if (input.schema) {
      const check = await this.schemas.checkOutput(input.owner ?? '', input.schema, data);
      if (!check.valid) throw new ModelAnswerError(check.message);
    }
    return data;
  }
}

function userPrompt(input: ExtractionInput, pageText: string): string {
  const lines = [`URL: ${input.url}`];
  lines.push(`Task: ${input.query ?? 'Extract the properties of the schema from the page.'}`);
  if (input.schema) lines.push(`JSON Schema of the answer: ${JSON.stringify(input.schema)}`);
  else
    lines.push(
      'Answer with a JSON object of the facts that answer the task (title, description and the facts asked for).',
    );
  lines.push('', 'Page:', pageText);
  return lines.join('\n');
}

function messageContent(body: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new ModelAnswerError('the model endpoint did not answer JSON');
  }
  const choice = (parsed as { choices?: { message?: { content?: unknown } }[] }).choices?.[0];
  const content = choice?.message?.content;
  if (typeof content !== 'string' || content.trim() === '')
    throw new ModelAnswerError('the model answer has no content');
  return content;
}

/** The JSON object in a model's answer: the whole text, or the inside of a ```json fence, or the outermost braces. */
export function parseJsonObject(content: string): Record<string, unknown> {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(content)?.[1];
  const attempts = [content.trim(), fenced?.trim()];
  const first = content.indexOf('{');
  const last = content.lastIndexOf('}');
  if (first >= 0 && last > first) attempts.push(content.slice(first, last + 1));
  for (const attempt of attempts) {
    if (!attempt) continue;
    try {
      const value: unknown = JSON.parse(attempt);
      if (typeof value === 'object' && value !== null && !Array.isArray(value))
        return value as Record<string, unknown>;
    } catch {
      // try the next reading
    }
  }
  throw new ModelAnswerError('the model answer is not a JSON object');
}
