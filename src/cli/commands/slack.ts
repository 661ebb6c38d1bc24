// `iris slack manifest`: the app manifest, YAML (Slack's manifest editor takes either) or JSON.
import { stringify } from 'yaml';
import { slackManifest } from '../../platforms/slack/manifest.js';
import { printData, printJson } from '../console.js';

export function slackManifestCommand(options: { json?: boolean }): void {
  const manifest = slackManifest();
  if (options.json) return printJson(manifest);
  printData(stringify(manifest).trimEnd());
}
