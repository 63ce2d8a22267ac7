import { IN_FLIGHT_STATUSES, RunType, TERMINAL_STATUSES } from '@webdata/core';
import * as vscode from 'vscode';
import type { RunFilter } from '../runs/run-types.js';
import type { Services } from '../services.js';

/**
 * Every run status and type of the v1 contract, as the filters offer them.
 * Functions, not constants: `@webdata/core` loads on first use, not with the extension.
 */
export function runStatuses(): readonly string[] {
  return [...IN_FLIGHT_STATUSES, ...TERMINAL_STATUSES];
}

export function runTypes(): readonly string[] {
  return RunType.options;
}

/** Filters the Runs view (the server's own filters, so the list is fetched anew) and shows the filter. */
export async function applyFilter(services: Services, filter: RunFilter): Promise<void> {
  services.store.setFilter(filter);
  services.provider.redrawAll();
  const filtered = filter.status !== undefined || filter.type !== undefined;
  await vscode.commands.executeCommand('setContext', 'webdata.runs.filtered', filtered);
  services.treeView.description = [filter.type, filter.status].filter(Boolean).join(' · ') || undefined;
}

/** Asks for one of `values` (or any), unless `given` already names one. `undefined`: the user gave up. */
export async function pickFilterValue(
  given: unknown,
  values: readonly string[],
  title: string,
  anyLabel: string,
): Promise<string | undefined> {
  if (typeof given === 'string') return given;
  const items = [{ label: anyLabel, value: '' }, ...values.map((value) => ({ label: value, value }))];
  return (await vscode.window.showQuickPick(items, { title }))?.value;
}
