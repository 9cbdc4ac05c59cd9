// @vitest-environment jsdom
/**
 * The top bar's profile switcher: a profile picked while another switch is still on its way is
 * switched to once that one is done, in the order picked; it is never silently dropped.
 */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it } from 'vitest';
import { ProfileSwitcher } from '../../../renderer/src/components/ProfileSwitcher';
import { appContext, gate, installFakeApp, profile, renderInApp } from '../support/component';

const MAIN_ID = '11111111-1111-4111-8111-111111111111';
const READ_ONLY_ID = '22222222-2222-4222-8222-222222222222';

it('switches to a profile picked while another switch is on its way, after that one', async () => {
  const app = installFakeApp();
  const main = profile({ id: MAIN_ID, name: 'Sandbox', active: true });
  const readOnly = profile({ id: READ_ONLY_ID, name: 'Read-only', active: false });
  const firstSwitch = gate();
  app.answer('profiles.activate', async ({ id }) => {
    if (id === READ_ONLY_ID) await firstSwitch.passed;
    return { ...(id === MAIN_ID ? main : readOnly), active: true };
  });
  renderInApp(
    <ProfileSwitcher />,
    appContext({ profiles: [main, readOnly], activeProfile: main }).value,
  );
  const user = userEvent.setup();
  const pick = async (name: string) => {
    if (!screen.queryByTestId('profile-menu'))
      await user.click(screen.getByTestId('profile-switcher'));
    await user.click(await screen.findByRole('menuitemradio', { name: new RegExp(name) }));
  };

  await pick('Read-only');
  await waitFor(() => expect(app.inputsOf('profiles.activate')).toHaveLength(1));
  // Back to Sandbox while the switch to Read-only has not been answered yet.
  await pick('Sandbox');
  expect(app.inputsOf('profiles.activate')).toHaveLength(1);
  firstSwitch.open();

  await waitFor(() =>
    expect(app.inputsOf('profiles.activate')).toEqual([{ id: READ_ONLY_ID }, { id: MAIN_ID }]),
  );
});
