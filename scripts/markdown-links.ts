import { isAbsolute, relative, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { remark } from 'remark';
import remarkValidateLinks from 'remark-validate-links';
import { engine } from 'unified-engine';
import { visit } from 'unist-util-visit';

type EnginePlugins = NonNullable<Parameters<typeof engine>[0]['plugins']>;

/** The part of a checked file (a vfile) this module uses. */
interface CheckedFile {
  path: string;
  dirname?: string | undefined;
  messages: { line?: number | undefined; column?: number | undefined; reason: string; place?: unknown }[];
  message(reason: string, place?: unknown): unknown;
}

/**
 * Relative links must stay inside the repository: a link to `../shared/…`
 * resolves on a developer's machine (and in CI, which has `shared/` beside the
 * clone) but not in a user's clone.
 */
function linksStayInside(options: { root: string }) {
  return (tree: Parameters<typeof visit>[0], file: CheckedFile) => {
    visit(tree, ['link', 'definition', 'image'], (node) => {
      const { url, position } = node as unknown as {
        url: string;
        position?: CheckedFile['messages'][number]['place'];
      };
      if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('#') || url.startsWith('//')) return;
      const path = decodeURIComponent(url.split('#')[0]!.split('?')[0]!);
      const target = path.startsWith('/')
        ? resolve(options.root, `.${path}`)
        : resolve(options.root, file.dirname ?? '.', path);
      const inside = relative(options.root, target);
      if (inside.startsWith('..') || isAbsolute(inside)) {
        file.message(`Link to \`${url}\` leaves the repository`, position);
      }
    });
  };
}

/**
 * Every problem with the relative links of `files` (Markdown, paths relative to
 * `root`), as `file:line:column: message`: a file or folder that does not
 * exist, a `#heading` that is not in the target file (GitHub's heading slugs),
 * a link out of the repository. Checked by `remark-validate-links`, which reads
 * all the files together so links between them are checked both ways.
 */
export async function markdownLinkProblems(root: string, files: string[]): Promise<string[]> {
  const checked = await new Promise<CheckedFile[]>((done, reject) =>
    engine(
      {
        processor: remark(),
        cwd: root,
        files,
        // The engine hands its file set to plugins given here (not through .use()), which
        // remark-validate-links needs to check links between files.
        plugins: [
          [remarkValidateLinks, { repository: false, root }],
          [linksStayInside, { root }],
        ] as unknown as EnginePlugins,
        // Report through the returned files only; print nothing, write nothing.
        output: false,
        out: false,
        quiet: true,
        silent: true,
        streamError: new PassThrough(),
        color: false,
      },
      (error, _code, context) => (error ? reject(error) : done((context?.files ?? []) as CheckedFile[])),
    ),
  );
  if (checked.length !== files.length) {
    throw new Error(`checked ${checked.length} of ${files.length} Markdown files`);
  }
  return checked.flatMap((file) =>
    file.messages.map(
      (message) => `${file.path}:${message.line ?? 0}:${message.column ?? 0}: ${message.reason}`,
    ),
  );
}
