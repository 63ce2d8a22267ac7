import {
  ContentFormat,
  LIMITS,
  ResultContentFormat,
  ResultStatus,
  RunStatus,
  RunType,
} from '@webdata/contract';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { DEFAULT_COLLECTIONS_LIMIT, listCollections, MAX_COLLECTIONS_LIMIT } from './commands/collections.js';
import { crawlCommand, deepCrawlCommand, extractCommand } from './commands/run-commands.js';
import {
  cancelRun,
  DEFAULT_RUNS_LIMIT,
  getRun,
  listResults,
  listRuns,
  MAX_RUNS_LIMIT,
  removeRun,
  retryRun,
  watchRun,
} from './commands/runs.js';
import { screenshotsCommand } from './commands/screenshots.js';
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT, searchCommand } from './commands/search.js';
import { CommandContext, type GlobalOptions } from './context.js';
import { errorMessage } from './error-message.js';
import { EXIT, exitCodeOf } from './exit-codes.js';
import type { CliIo } from './io.js';
import { jsonErrorLine, jsonRequested, jsonUsageErrorLine } from './json-error.js';
import { DEFAULT_BASE_URL } from './settings.js';

/**
 * A whole number from `min` to `max`, checked here so the message names the
 * option and its range, as `--help` does, before anything is sent.
 */
function wholeNumberIn(min: number, max: number) {
  return (value: string): number => {
    const number = Number(value);
    if (!Number.isInteger(number) || number < min || number > max)
      throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
    return number;
  };
}

function seconds(value: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new InvalidArgumentError('expected a number of seconds');
  return number;
}

const list = (value: string, previous: string[] | undefined) => [...(previous ?? []), ...value.split(',')];

/** After `webdata --help`: where the key and server come from, and what the exit codes say. */
const HELP_FOOTER = `
Key and server:
  WEBDATA_API_KEY     the API key (never a flag); else "apiKey" in the config file
  WEBDATA_BASE_URL    the server; else "baseUrl" in the config file, else ${DEFAULT_BASE_URL}
  WEBDATA_CONFIG      the config file (default: $XDG_CONFIG_HOME/webdata/config.json,
                      else ~/.config/webdata/config.json), {"baseUrl": "…", "apiKey": "…"}

Output: results on stdout (one JSON document with --json), progress and notes on stderr
  (a listing cut at --limit says so there); with --json, an error is one line of JSON on stderr:
  {"error": {"code": "not_found", "message": "…", "request_id": "…"}, "exit_code": 8}

Exit codes:
  0 completed   2 bad arguments or request, no key   3 run failed   4 some pages failed
  5 cancelled   6 --deadline passed   7 key refused   8 not found   9 not in that state
  10 server unreachable or failing   1 anything else   130 Ctrl-C
`;

const deadlineOption = () =>
  new Option('--deadline <seconds>', 'stop waiting (exit 6) if the run has not finished by then').argParser(
    seconds,
  );

const contentOption = () =>
  new Option('--content <format>', "print each result's content in this format").choices(
    ResultContentFormat.options,
  );

/** Options of the commands that create a run. */
function withRunOptions(command: Command): Command {
  return command
    .addOption(contentOption())
    .addOption(deadlineOption())
    .option('--detach', 'create the run, print its id and return without waiting')
    .option('--screenshot', 'take a screenshot of each page');
}

/** Options of the crawling commands. */
function withCrawlOptions(command: Command): Command {
  return withRunOptions(command)
    .addOption(
      new Option('--formats <list>', 'formats to store, comma-separated').argParser((value) => {
        const formats = value.split(',');
        for (const format of formats) {
          if (!ContentFormat.options.includes(format as never)) {
            throw new InvalidArgumentError(`unknown format ${format} (${ContentFormat.options.join(', ')})`);
          }
        }
        return formats;
      }),
    )
    .option('--collection <name>', 'the search collection pages are indexed in')
    .option('--include <glob>', 'only paths matching (repeatable, or comma-separated)', list)
    .option('--exclude <glob>', 'never paths matching (repeatable, or comma-separated)', list)
    .option('--no-robots', 'ignore robots.txt');
}

/**
 * The `webdata` command line, run against `io` (the process's streams and
 * environment, or a test's), resolving with the exit code (see `EXIT`).
 */
export async function runCli(argv: readonly string[], io: CliIo, signal?: AbortSignal): Promise<number> {
  let exitCode: number = EXIT.ok;
  let context: CommandContext | undefined;
  // With --json, an error is one line of JSON on stderr, even one commander finds before --json is parsed.
  const json = jsonRequested(argv);
  let usageError: string | undefined;
  const program = new Command('webdata')
    .description('Crawl, extract and search public web content with a webdata server.')
    .version('0.1.0')
    .option(
      '--base-url <url>',
      'the server (default: WEBDATA_BASE_URL, the config file, or http://127.0.0.1:8787)',
    )
    .option('--json', 'print the results as one JSON document on stdout')
    .option('--progress', 'draw progress bars on stderr even when it is not a terminal')
    .option('--no-progress', 'never draw progress bars')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      outputError: (text, write) => {
        if (json) usageError = text.trim().replace(/^error: /, '');
        else write(text);
      },
    })
    .showHelpAfterError(json ? false : '(webdata --help, or webdata COMMAND --help, for usage)')
    .addHelpText('after', HELP_FOOTER);
  const act =
    <A extends unknown[]>(handler: (context: CommandContext, ...args: A) => Promise<number>) =>
    async (...args: A) => {
      context = new CommandContext(io, program.opts<GlobalOptions>(), signal);
      exitCode = await handler(context, ...args);
    };
  // commander passes the command's own options, then the Command, after the positional arguments.
  const withOptions =
    <P extends unknown[], O>(handler: (context: CommandContext, ...args: [...P, O]) => Promise<number>) =>
    (context: CommandContext, ...args: unknown[]) =>
      handler(context, ...(args.slice(0, -1) as [...P, O]));

  withCrawlOptions(
    program.command('crawl').argument('<urls...>', 'pages to fetch (-: read them from stdin, one a line)'),
  )
    .description('Crawl known URLs (or, with --follow, a site from one start URL) and print the pages.')
    .option('--follow', 'follow same-site links from the one start URL')
    .option(
      '--limit <n>',
      `with --follow: pages at most (default 10, at most ${LIMITS.maxCrawlLimit})`,
      wholeNumberIn(1, LIMITS.maxCrawlLimit),
    )
    .action(act(withOptions(crawlCommand)));

  withCrawlOptions(program.command('deep-crawl').argument('<url>', 'where to start'))
    .description('Crawl a site area breadth-first from a URL.')
    .option(
      '--max-depth <n>',
      `link depth at most, 0 for the start page alone (default 3, at most ${LIMITS.maxDeepCrawlDepth})`,
      wholeNumberIn(0, LIMITS.maxDeepCrawlDepth),
    )
    .option(
      '--limit <n>',
      "pages at most (default 100; the server's ceiling, 10000 by default, applies)",
      wholeNumberIn(1, LIMITS.maxDeepCrawlLimit),
    )
    .option('--no-sitemap', 'do not read the sitemap')
    .option('--all-sites', 'follow links to other sites too')
    .action(act(withOptions(deepCrawlCommand)));

  withRunOptions(
    program
      .command('extract')
      .argument('<urls...>', 'pages to extract from (-: read them from stdin, one a line)'),
  )
    .description('Extract schema-shaped data from URLs.')
    .option('--query <text>', 'what to extract, in words')
    .option('--schema <file>', 'a JSON Schema file (type: object) the data must match')
    .action(act(withOptions(extractCommand)));

  program
    .command('search')
    .argument('<query...>', 'words to search for')
    .description('Search the indexed pages of a collection.')
    .option('--collection <name>', 'the collection (default "default")')
    .option(
      '--limit <n>',
      `hits at most, read page by page (default ${DEFAULT_SEARCH_LIMIT}, at most ${MAX_SEARCH_LIMIT}); stderr says when there are more`,
      wholeNumberIn(1, MAX_SEARCH_LIMIT),
    )
    .action(act(withOptions(searchCommand)));

  program
    .command('collections')
    .description('List the search collections of this key, by name (name, documents, last indexed).')
    .option(
      '--limit <n>',
      `collections at most, read page by page (default ${DEFAULT_COLLECTIONS_LIMIT}, at most ${MAX_COLLECTIONS_LIMIT}); stderr says when there are more`,
      wholeNumberIn(1, MAX_COLLECTIONS_LIMIT),
    )
    .action(
      act((context, options) => listCollections(context, options as Parameters<typeof listCollections>[1])),
    );

  const runs = program.command('runs').description('List, inspect, watch, cancel, retry and delete runs.');
  runs
    .command('ls')
    .alias('list')
    .description('List runs, newest first.')
    .addOption(new Option('--status <status>', 'only runs in this state').choices(RunStatus.options))
    .addOption(new Option('--type <type>', 'only runs of this kind').choices(RunType.options))
    .option(
      '--limit <n>',
      `runs at most, read page by page (default ${DEFAULT_RUNS_LIMIT}, at most ${MAX_RUNS_LIMIT}); stderr says when there are more`,
      wholeNumberIn(1, MAX_RUNS_LIMIT),
    )
    .action(act((context, options) => listRuns(context, options as Parameters<typeof listRuns>[1])));
  runs
    .command('get')
    .argument('<id>')
    .description("Show a run's state.")
    .action(act(withOptions(getRun)));
  runs
    .command('watch')
    .argument('<id>')
    .description(
      'Follow a run (one started with --detach, say) to its end with a progress bar, then print its results; Ctrl-C stops watching, not the run.',
    )
    .addOption(contentOption())
    .addOption(deadlineOption())
    .action(act(withOptions(watchRun)));
  runs
    .command('cancel')
    .argument('<id>')
    .description('Cancel a queued or running run.')
    .action(act(withOptions(cancelRun)));
  runs
    .command('retry')
    .argument('<id>')
    .description('Run again the pages of a run that did not succeed.')
    .option('--wait', 'follow the run to its end and print its results')
    .addOption(contentOption())
    .action(act(withOptions(retryRun)));
  runs
    .command('rm')
    .alias('delete')
    .argument('<id>')
    .description('Delete a run with its results.')
    .action(act(withOptions(removeRun)));

  program
    .command('results')
    .argument('<runId>')
    .description(
      'Print the results of a run, the URLs given in the order given (pages found by a crawl after them).',
    )
    .addOption(contentOption())
    .addOption(new Option('--status <status>', 'only results in this state').choices(ResultStatus.options))
    .option('--unfinished', 'read the results of a run that is still going (what is done so far)')
    .action(act(withOptions(listResults)));

  program
    .command('screenshots')
    .argument('<runId>')
    .description(
      "The screenshots of a run's pages (a run made with --screenshot): a signed URL a page, or with --out the PNG files.",
    )
    .option('--out <dir>', 'write each screenshot as a PNG file in this directory (made if missing)')
    .action(act(withOptions(screenshotsCommand)));

  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end here too, with exit code 0.
      exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
      if (json && exitCode !== EXIT.ok) {
        // No command at all: commander printed the help on stderr, and no error message.
        io.stderr.write(
          jsonUsageErrorLine(usageError ?? 'no command given (webdata --help lists them)', exitCode),
        );
      }
    } else {
      exitCode = exitCodeOf(error);
      const message = errorMessage(error, context?.settings, context?.request);
      io.stderr.write(json ? jsonErrorLine(error, message, exitCode) : `webdata: ${message}\n`);
    }
  } finally {
    await context?.close();
  }
  return exitCode;
}
