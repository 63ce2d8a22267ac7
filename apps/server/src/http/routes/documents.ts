import type { DocumentContentFormat } from '@webdata/contract';
import type { FastifyInstance } from 'fastify';
import { notFound, ServiceError } from '../../errors.js';
import type { ApiContext } from '../context.js';
import { declareRoute } from '../contract-route.js';
import { acceptedAnswers, JSON_ANSWER, preferredRawType } from '../raw-content.js';

/** Media types a client may ask for to get a document's content raw instead of as JSON. */
const RAW_TYPES: Record<string, DocumentContentFormat> = {
  'text/markdown': 'markdown',
  'text/plain': 'text',
};

/**
 * Indexed documents: the full content of the document a search hit names.
 * `text` is the collection's own copy (what was indexed); `markdown` is read
 * from the result the document was last indexed from, so it is there when
 * that run stored Markdown.
 */
export function registerDocumentRoutes(app: FastifyInstance, context: ApiContext): void {
  declareRoute(app, context, 'getDocumentContent', async ({ path, query, request, reply, send }) => {
    const { collection, documentId } = path;
    const document = await context.store.getDocument(request.owner, collection, documentId);
    if (!document) {
      // Both are the owner's own facts (another key's collection is as unknown as a missing one).
      throw (await context.store.hasCollection(request.owner, collection))
        ? notFound('document')
        : notFound('collection');
    }
    // The answer depends on Accept (raw or JSON, and which format): a cache must key on it.
    reply.header('vary', 'Accept');
    const markdown =
      document.resultId === null ? null : await context.store.getContent(document.resultId, 'markdown');
    // With ?format the format is fixed and Accept picks raw or JSON; without, the first answer Accept
    // prefers that the document holds (text always; Markdown when its run stored it).
    let raw: string | null;
    let format: DocumentContentFormat;
    if (query.format) {
      raw = preferredRawType(request.headers.accept, Object.keys(RAW_TYPES));
      format = query.format;
    } else {
      const answers = acceptedAnswers(request.headers.accept, Object.keys(RAW_TYPES));
      const held = answers.find((answer) => answer !== 'text/markdown' || markdown !== null) ?? answers[0]!;
      raw = held === JSON_ANSWER ? null : held;
      format = raw ? RAW_TYPES[raw]! : markdown === null ? 'text' : 'markdown';
    }
    let content: string;
    if (format === 'text') content = document.text;
    else if (markdown !== null) content = markdown;
    else {
      throw new ServiceError(
        'not_found',
        'this document has no markdown content: the run that indexed it last did not store Markdown; format=text serves the indexed text',
      );
    }
    if (raw) {
      return reply
        .type(`${format === 'markdown' ? 'text/markdown' : 'text/plain'}; charset=utf-8`)
        .send(content);
    }
    return send({
      id: document.id,
      collection: document.collection,
      url: document.url,
      title: document.title,
      format,
      content,
      indexed_at: document.indexedAt,
    });
  });
}
