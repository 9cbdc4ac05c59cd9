// @vitest-environment jsdom
/**
 * Removed profiles (Settings and the welcome screen): a restored profile leaves the list as soon
 * as the restore is answered. The list does not wait for a read of it to come back: a CI journey
 * saw the restored profile stay listed for 10 s after its restore had been answered.
 */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it } from 'vitest';
import { RemovedProfiles } from '../../../renderer/src/components/RemovedProfiles';
import type { RemovedProfileView } from '../../../shared/types';
import { appContext, gate, installFakeApp, profile, renderInApp } from '../support/component';

const ID = '11111111-1111-4111-8111-111111111111';

it('takes a restored profile off the list when the restore is answered, before the list is read again', async () => {
  const app = installFakeApp();
  const restoredProfile = profile({ id: ID, name: 'Sandbox parent', active: true });
  const removedView: RemovedProfileView = {
    id: ID,
    name: 'Sandbox parent',
    baseUrl: restoredProfile.baseUrl,
    apiKeyMasked: restoredProfile.apiKeyMasked,
    createdAt: 0,
    removedAt: 1,
  };
  let restored = false;
  // The reads of the list after the restore are held: the main process is busy starting the
  // restored profile's session, or the read is still on its way.
  const laterReads = gate();
  app.answer('profiles.removed', async () => {
    if (!restored) return [removedView];
    await laterReads.passed;
    return [];
  });
  app.answer('profiles.restore', () => {
    restored = true;
    return restoredProfile;
  });
  const { value, toasts } = appContext({ activeProfile: null });
  renderInApp(<RemovedProfiles />, value);
  const user = userEvent.setup();

  await user.click(await screen.findByTestId('removed-restore'));
  await user.type(screen.getByTestId('removed-apiKey'), 'k'.repeat(64));
  await user.type(screen.getByTestId('removed-secretKey'), 's'.repeat(64));
  await user.click(screen.getByTestId('removed-save'));

  await waitFor(() => expect(toasts.map((t) => t.title)).toEqual(['Restored Sandbox parent']));
  expect(screen.queryByTestId('removed-profiles')).toBeNull();
  // The list is read again all the same, and its answer keeps the profile off it.
  expect(app.inputsOf('profiles.removed').length).toBeGreaterThanOrEqual(2);
  laterReads.open();
  await waitFor(() => expect(screen.queryByTestId('removed-profiles')).toBeNull());
});
