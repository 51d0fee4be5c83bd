/**
 * Reads a job feed in our JSON format (job-feeds' `jobs.json`: `{"object":"job_feed",
 * "data":[{reference_number, title, location, job_posting:{description,…}}, …]}`) as a
 * stream: `@streamparser/json` emits each element of `data` as soon as it closes and keeps
 * nothing of the ones before, so a feed of any length is read in the memory of one job.
 * Each job becomes the same FeedJob the XML reader yields (one importer for both formats).
 */
import { JSONParser } from '@streamparser/json';
import { FeedSyntaxError, type FeedJob } from './xml-feed-reader';

/** A string field longer than this is cut (the importer rejects it anyway): memory stays bounded. */
const MAX_FIELD_CHARS = 100_000;

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value.slice(0, MAX_FIELD_CHARS) : undefined);

/** One element of `data` as a FeedJob: fields of the wrong type are absent (the importer reports them). */
export function jsonFeedJob(value: unknown, position: number): FeedJob {
  const job: FeedJob = { position };
  if (!value || typeof value !== 'object' || Array.isArray(value)) return job;
  const item = value as Record<string, unknown>;
  const posting = item.job_posting && typeof item.job_posting === 'object' ? (item.job_posting as Record<string, unknown>) : {};
  const fields: Record<string, string | undefined> = {
    referencenumber: text(item.reference_number),
    title: text(item.title),
    description: text(item.description) ?? text(posting.description),
    city: text(item.location),
    url: text(item.url),
  };
  for (const [key, field] of Object.entries(fields)) if (field !== undefined) (job as unknown as Record<string, string>)[key] = field.trim();
  return job;
}

/** Yields the feed's jobs in order; throws FeedSyntaxError on malformed JSON or a document that is no job feed. */
export async function* readJsonFeed(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<FeedJob> {
  // keepStack false: a finished job is dropped from the parser's stack once emitted.
  const parser = new JSONParser({ paths: ['$.data.*', '$.object'], keepStack: false });
  const ready: FeedJob[] = [];
  let failure: Error | undefined;
  let sawObject = false;
  let position = 0;
  let started = false;
  parser.onValue = ({ value, key, stack }) => {
    if (stack.length === 1 && key === 'object') {
      sawObject = true;
      if (value !== 'job_feed') failure ??= new FeedSyntaxError('expected a job feed ("object": "job_feed")');
      return;
    }
    ready.push(jsonFeedJob(value, ++position));
  };
  parser.onError = (error) => {
    failure ??= new FeedSyntaxError(error.message.split('\n')[0]);
  };
  for await (const chunk of chunks) {
    if (!started && (typeof chunk === 'string' ? chunk.length : chunk.byteLength) > 0) started = true;
    if (!parser.isEnded) parser.write(chunk);
    if (failure) throw failure;
    while (ready.length) yield ready.shift()!;
  }
  if (!started) throw new FeedSyntaxError('the feed is empty');
  if (!parser.isEnded) parser.end();
  if (failure) throw failure;
  if (!sawObject) throw new FeedSyntaxError('expected a job feed ("object": "job_feed")');
  while (ready.length) yield ready.shift()!;
}
