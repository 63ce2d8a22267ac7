import type { Observable, Subscription } from 'rxjs';
import * as vscode from 'vscode';
import type { KeyVerdict } from '../connection/connection-state.js';
import { keyStepId } from './key-step-id.js';

/**
 * Keeps the walkthrough's "Set the API key" step in line with what the
 * service said of the key: ticked once it took one, unticked when it refuses
 * the key in use or the key is forgotten; a key not tried yet (the service
 * did not answer) leaves the step as it was.
 *
 * The manifest ticks the step on the context key `webdata.apiKeyAccepted`
 * (`onContext`), which the workbench acts on once a session and never
 * unticks by: the step is also marked done / not done with the workbench's
 * own commands (those of the step's context menu), so a key refused and then
 * replaced by a good one in the same session ticks it again.
 */
export function followKeyStep(verdict$: Observable<KeyVerdict>, extensionId: string): Subscription {
  const step = keyStepId(extensionId);
  return verdict$.subscribe((verdict) => {
    void vscode.commands.executeCommand('setContext', 'webdata.apiKeyAccepted', verdict === 'accepted');
    const command =
      verdict === 'accepted'
        ? 'welcome.markStepComplete'
        : verdict === 'refused' || verdict === 'none'
          ? 'welcome.markStepIncomplete'
          : undefined;
    // Commands of the workbench's walkthrough page, not API: where there is none, the context key alone ticks it.
    if (command) void Promise.resolve(vscode.commands.executeCommand(command, step)).catch(() => undefined);
  });
}
