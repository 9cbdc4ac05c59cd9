// @vitest-environment jsdom
/**
 * The profile form: what it sends to profiles.add, the bridge's own input messages shown on the
 * field they name (nothing reaches the app then), the button held while the app checks the key.
 */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ProfileView } from '../../../shared/types';
import { ProfileEditor, ProfileForm } from '../../../renderer/src/components/ProfileForm';
import {
  AppError,
  appContext,
  gate,
  installFakeApp,
  profile,
  renderInApp,
} from '../support/component';

const KEY = {
  name: 'Main account',
  apiKey: 'AbCd1234efgh5678wxyz',
  secretKey: 'secret-0123456789abcdef',
  baseUrl: 'https://api.example.test',
  streamUrl: 'wss://stream.example.test/ws',
};

function renderForm() {
  const added: ProfileView[] = [];
  renderInApp(
    <ProfileForm onAdded={(p) => added.push(p)} />,
    appContext({ activeProfile: null }).value,
  );
  return { added };
}

/** Puts each value of `values` in its field in place of what the form prefilled, as pasted. */
async function fill(values: Partial<typeof KEY>) {
  const user = userEvent.setup();
  for (const [name, value] of Object.entries(values)) {
    await user.clear(screen.getByTestId(`profile-${name}`));
    await user.paste(value);
  }
  return user;
}

const fieldError = (name: string) =>
  screen.getByTestId(`profile-${name}`).closest('label')!.querySelector('.field-error');

describe('ProfileForm', () => {
  it('sends the key as typed to profiles.add and hands the new profile on', async () => {
    const app = installFakeApp();
    let release!: () => void;
    const checked = new Promise<void>((resolve) => (release = resolve));
    app.answer('profiles.add', async (input) => {
      await checked;
      return profile({ id: 'p9', name: input.name });
    });
    const { added } = renderForm();
    const user = await fill({ ...KEY, name: `  ${KEY.name} ` });
    const submit = screen.getByTestId('profile-submit');
    expect(submit).toHaveProperty('disabled', false);
    await user.click(submit);

    // While the app checks the key with the exchange, the form says so and cannot be sent twice.
    await waitFor(() => expect(submit).toHaveProperty('disabled', true));
    expect(submit.textContent).toBe('Checking the key and the stream with the exchange…');
    release();
    await waitFor(() => expect(added.map((p) => p.id)).toEqual(['p9']));
    expect(submit).toHaveProperty('disabled', false);
    expect(app.inputsOf('profiles.add')).toEqual([{ ...KEY, name: KEY.name }]);
    expect(added[0]!.name).toBe(KEY.name);
  });

  it.each([
    ['apiKey', { apiKey: 'short' }, 'The API key looks too short'],
    ['secretKey', { secretKey: 'tiny' }, 'The secret key looks too short'],
    ['baseUrl', { baseUrl: 'ftp://api.example.test' }, 'Base URL must be an http(s) address'],
    [
      'streamUrl',
      { streamUrl: 'https://stream.example.test' },
      'Stream URL must be a ws(s) address',
    ],
    ['name', { name: '   ' }, 'Give the profile a name'],
  ])(
    'shows the bridge’s message on the %s field and sends nothing',
    async (field, bad, message) => {
      const app = installFakeApp();
      app.answer('profiles.add', () => profile());
      renderForm();
      const user = await fill({ ...KEY, ...bad });
      await user.click(screen.getByTestId('profile-submit'));

      await waitFor(() => expect(fieldError(field)?.textContent).toBe(message));
      expect(screen.getByTestId(`profile-${field}`).getAttribute('aria-invalid')).toBe('true');
      // One message, on that field alone.
      expect(document.querySelectorAll('.field-error')).toHaveLength(1);
      expect(app.inputsOf('profiles.add')).toEqual([]);
      expect(screen.getByTestId('profile-submit')).toHaveProperty('disabled', false);
    },
  );

  it('shows what the exchange said about a refused key, with what to do', async () => {
    const app = installFakeApp();
    app.answer('profiles.add', () => {
      throw new AppError('auth', 'The exchange rejected this API key (code -2015)');
    });
    const { added } = renderForm();
    const user = await fill(KEY);
    await user.click(screen.getByTestId('profile-submit'));

    const boxes = await screen.findAllByTestId('profile-error');
    expect(boxes).toHaveLength(1);
    expect(boxes[0]!.textContent).toContain('The exchange rejected this API key (code -2015)');
    expect(boxes[0]!.textContent).toContain('Check the key and secret');
    expect(added).toEqual([]);
    expect(app.inputsOf('profiles.add')).toHaveLength(1);
    expect(screen.getByTestId('profile-submit')).toHaveProperty('disabled', false);
  });
});

describe('ProfileEditor', () => {
  function renderEditor(editing = profile()) {
    const saved: ProfileView[] = [];
    let cancelled = 0;
    renderInApp(
      <ProfileEditor
        profile={editing}
        onSaved={(p) => saved.push(p)}
        onCancel={() => (cancelled += 1)}
      />,
      appContext().value,
    );
    return { saved, cancelled: () => cancelled };
  }

  it('checks new addresses once, holding both buttons, and hands the saved profile on', async () => {
    const app = installFakeApp();
    const checked = gate();
    app.answer('profiles.update', async (input) => {
      await checked.passed;
      return profile({ ...input });
    });
    const { saved } = renderEditor();
    const user = await fill({ baseUrl: 'http://127.0.0.1:2' });
    const save = screen.getByTestId('profile-save');
    await user.click(save);

    await waitFor(() => expect(save).toHaveProperty('disabled', true));
    expect(save.textContent).toBe('Checking with the exchange…');
    expect(screen.getByText('Cancel')).toHaveProperty('disabled', true);
    await user.click(save);
    checked.open();
    await waitFor(() => expect(saved.map((p) => p.baseUrl)).toEqual(['http://127.0.0.1:2']));
    expect(app.inputsOf('profiles.update')).toEqual([
      { id: 'p1', name: 'Main', baseUrl: 'http://127.0.0.1:2', streamUrl: 'ws://127.0.0.1:1/ws' },
    ]);
  });

  it('names the field the bridge refused and sends nothing; the app’s failure is said once', async () => {
    const app = installFakeApp();
    app.answer('profiles.update', () => {
      throw new AppError(
        'network',
        "Nothing answers at the exchange's address: the connection was refused.",
      );
    });
    const { saved } = renderEditor();
    const user = await fill({ streamUrl: 'http://127.0.0.1:1/ws' });
    await user.click(screen.getByTestId('profile-save'));
    await waitFor(() =>
      expect(fieldError('streamUrl')?.textContent).toBe('Stream URL must be a ws(s) address'),
    );
    expect(app.inputsOf('profiles.update')).toEqual([]);

    await fill({ streamUrl: 'ws://127.0.0.1:2/ws' });
    await user.click(screen.getByTestId('profile-save'));
    const boxes = await screen.findAllByTestId('profile-error');
    expect(boxes).toHaveLength(1);
    expect(boxes[0]!.textContent).toContain('the connection was refused.');
    expect(document.querySelectorAll('.field-error')).toHaveLength(0);
    expect(app.inputsOf('profiles.update')).toHaveLength(1);
    expect(saved).toEqual([]);
    expect(screen.getByTestId('profile-save')).toHaveProperty('disabled', false);
  });
});
