import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The repository's root, four levels above this folder (`apps/server/quality/extract`). */
const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** A corpus the harness needs is not beside the repository (a user's clone has no `../shared`). */
export class CorpusMissingError extends Error {
  override readonly name = 'CorpusMissingError';
}

/**
 * The folder of a shared corpus, `<repo>/../shared/corpora/<name>`: data made
 * by others, kept beside the repository (CI checks it out there), never
 * copied into it. Throws {@link CorpusMissingError} with what to do when it
 * is not there.
 */
export function sharedCorpusDir(name: string): string {
  const dir = fileURLToPath(new URL(`../shared/corpora/${name}/`, `file://${REPO_ROOT}`));
  if (!existsSync(dir)) {
    throw new CorpusMissingError(
      `the corpus ${name} is not at ${dir}: this harness measures on pages kept beside the repository ` +
        `(../shared/corpora/, present in CI and on the project's machines, not in a plain clone)`,
    );
  }
  return dir;
}

/** Readability's metadata for one page of the readability corpora (`expected-metadata.json`). */
export interface ReadabilityMetadata {
  title: string | null;
  byline: string | null;
  siteName: string | null;
  excerpt?: string | null;
  lang?: string | null;
  publishedTime?: string | null;
}

/** One saved page and Readability's reading of it. */
export interface ReadabilityPage {
  name: string;
  html: string;
  expected: ReadabilityMetadata;
}

/** Every page of a readability corpus folder (`<name>/source.html` + `expected-metadata.json`), by name. */
export function loadReadabilityPages(dir: string): ReadabilityPage[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(`${dir}${entry.name}/source.html`))
    .map((entry) => entry.name)
    .sort()
    .map((name) => ({
      name,
      html: readFileSync(`${dir}${name}/source.html`, 'utf8'),
      expected: JSON.parse(
        readFileSync(`${dir}${name}/expected-metadata.json`, 'utf8'),
      ) as ReadabilityMetadata,
    }));
}
