import { describe, expect, it } from 'vitest';
import { prEventOf } from './pr-event.js';
import { SAMPLE_EVENTS, samplePayloadFor } from './sample-payloads.js';
import { renderTemplate } from './template.js';

describe('samplePayloadFor', () => {
  it("fills the README's pull_request route: its prompt and its deliver_extra", () => {
    const { payload, description } = samplePayloadFor('pull_request');
    expect(description).toBe('a GitHub pull_request (opened) sample');
    expect(renderTemplate('Review PR #{number} in {repository.full_name}: {pull_request.title}', payload)).toBe('Review PR #7 in example/iris-webhook-test: Add a retry to the upload step');
    expect(renderTemplate('{repository.full_name}', payload)).toBe('example/iris-webhook-test');
  });

  it.each([
    ['issue_comment', '{issue.number} {comment.body}', '7 Could you look at the error handling here?'],
    ['push', '{ref} {head_commit.message}', 'refs/heads/main Retry the upload step three times'],
    ['Merge Request Hook', '{project.path_with_namespace}!{object_attributes.iid}', 'example/iris-webhook-test!7'],
    ['Note Hook', '{merge_request.iid}: {object_attributes.note}', '7: Could you look at the error handling here?'],
  ])('%s has the fields its routes use', (event, template, rendered) => {
    expect(renderTemplate(template, samplePayloadFor(event).payload)).toBe(rendered);
  });

  it('the pull-request samples are about a pull request, as the PR routes read them', () => {
    for (const event of ['pull_request', 'issue_comment', 'pull_request_review_comment', 'Merge Request Hook', 'Note Hook']) {
      expect(prEventOf(event, samplePayloadFor(event).payload), event).toBeDefined();
    }
  });

  it('an event without a sample gets the generic payload, and says so', () => {
    expect(samplePayloadFor('deployment')).toEqual({ description: 'a generic test payload (no sample for this event)', payload: { action: 'test', test: true, sender: { login: 'iris-webhook-test', type: 'User' } } });
    expect(SAMPLE_EVENTS).toContain('Merge Request Hook');
  });
});
