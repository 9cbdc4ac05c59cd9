import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { ProfileView } from '../../../shared/types';
import { useApp } from '../context';
import { bridge, errorInfo } from '../lib/bridge';
import { useAction } from '../lib/query';

function capabilities(profile: ProfileView): string {
  const may = ['read'];
  if (profile.canTrade) may.push('trade');
  if (profile.canWithdraw) may.push('withdraw');
  if (profile.canTransfer) may.push('transfer');
  return may.join(', ');
}

/**
 * The active profile in the top bar, and a menu to switch to another one. A menu button: Enter,
 * Space or the arrow keys open it on the active profile, the arrows move (wrapping), Enter picks,
 * Escape closes it and focus stays on the button.
 */
export function ProfileSwitcher() {
  const { profiles, activeProfile, reloadProfiles, navigate, toast } = useApp();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const menuId = useId();

  const items = () => [...(menu.current?.querySelectorAll<HTMLElement>('[role^=menuitem]') ?? [])];
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };

  // On opening, focus goes to the active profile's item.
  useEffect(() => {
    if (!open) return undefined;
    const all = items();
    (all.find((item) => item.getAttribute('aria-checked') === 'true') ?? all[0])?.focus();
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!menu.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  const onButtonKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
    }
  };
  const onMenuKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const all = items();
    const at = all.indexOf(document.activeElement as HTMLElement);
    const move = (index: number) => all[(index + all.length) % all.length]?.focus();
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        move(at + 1);
        break;
      case 'ArrowUp':
        event.preventDefault();
        move(at - 1);
        break;
      case 'Home':
        event.preventDefault();
        move(0);
        break;
      case 'End':
        event.preventDefault();
        move(all.length - 1);
        break;
      case 'Escape':
        event.preventDefault();
        event.stopPropagation();
        close(true);
        break;
      case 'Tab':
        close(false);
        break;
      default:
    }
  };

  // The button is never disabled while switching: a disabled button would drop focus to the page.
  const activate = useAction(
    (profile: ProfileView) => bridge().profiles.activate({ id: profile.id }),
    {
      onSuccess: async (_, profile) => {
        await reloadProfiles();
        toast({ title: `Switched to ${profile.name}`, tone: 'success' });
      },
      onError: (error, profile) =>
        toast({
          title: `Could not switch to ${profile.name}`,
          body: errorInfo(error).message,
          tone: 'error',
        }),
    },
  );
  const switching = activate.pending;
  // A pick made while a switch is on its way is made after it, never dropped: the list already
  // shows the new profile as active while its switch is still settling.
  const underway = useRef(false);
  const picked = useRef<ProfileView | null>(null);
  const switchTo = async (profile: ProfileView): Promise<void> => {
    if (underway.current) {
      picked.current = profile;
      close(true);
      return;
    }
    if (profile.active) {
      close(true);
      return;
    }
    underway.current = true;
    try {
      await activate.run(profile);
    } finally {
      underway.current = false;
    }
    close(true);
    const next = picked.current;
    picked.current = null;
    if (next && next.id !== profile.id) await switchTo({ ...next, active: false });
  };

  if (!activeProfile) return null;
  return (
    <div className="profile-switcher">
      <button
        ref={button}
        type="button"
        className="small ghost profile-switcher-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={`Profile: ${activeProfile.name}. Switch profile`}
        aria-busy={switching || undefined}
        onClick={() => setOpen((was) => !was)}
        onKeyDown={onButtonKey}
        data-testid="profile-switcher"
      >
        <span className="profile-name" data-testid="active-profile">
          {activeProfile.name}
        </span>
        <span aria-hidden="true" className="caret">
          ▾
        </span>
      </button>
      {open && (
        <div
          ref={menu}
          id={menuId}
          className="profile-menu"
          role="menu"
          aria-label="Profiles"
          onKeyDown={onMenuKey}
          data-testid="profile-menu"
        >
          {profiles.map((profile) => (
            <button
              key={profile.id}
              type="button"
              role="menuitemradio"
              aria-checked={profile.active}
              tabIndex={-1}
              className="profile-menu-item"
              onClick={() => void switchTo(profile)}
            >
              <span className="profile-menu-name">
                {profile.name}
                {profile.isDemo && <span className="badge demo">Demo</span>}
              </span>
              <span className="muted small-text">May {capabilities(profile)}</span>
            </button>
          ))}
          {profiles.length > 1 && (
            <button
              type="button"
              role="menuitem"
              tabIndex={-1}
              className="profile-menu-item"
              onClick={() => {
                close(false);
                navigate({ screen: 'portfolio', all: true });
              }}
              data-testid="profile-menu-all"
            >
              All profiles together…
            </button>
          )}
          <button
            type="button"
            role="menuitem"
            tabIndex={-1}
            className="profile-menu-item"
            onClick={() => {
              close(false);
              navigate({ screen: 'settings' });
            }}
          >
            Manage profiles…
          </button>
        </div>
      )}
    </div>
  );
}
