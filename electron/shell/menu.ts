/**
 * The application menu: standard roles, "Lock Spotfolio" when the app can lock, plus developer
 * tools only in unpackaged builds.
 */
import { Menu, type MenuItemConstructorOptions } from 'electron';
import { LOCK_MENU_ACCELERATOR } from './lock';

export interface MenuOptions {
  isMac: boolean;
  isPackaged: boolean;
  onShow(): void;
  /** Locks the app now; without it the menu has no lock item. */
  onLock?(): void;
}

export function appMenuTemplate(options: MenuOptions): MenuItemConstructorOptions[] {
  const view: MenuItemConstructorOptions[] = [
    { role: 'reload' },
    { type: 'separator' },
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  ];
  if (!options.isPackaged) view.push({ type: 'separator' }, { role: 'toggleDevTools' });
  return [
    ...(options.isMac ? [{ role: 'appMenu' } as MenuItemConstructorOptions] : []),
    {
      label: 'File',
      submenu: [
        { label: 'Show Spotfolio', accelerator: 'CmdOrCtrl+1', click: () => options.onShow() },
        ...lockItem(options),
        { type: 'separator' },
        options.isMac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    { label: 'View', submenu: view },
    { role: 'windowMenu' },
  ];
}

function lockItem(options: MenuOptions): MenuItemConstructorOptions[] {
  const onLock = options.onLock;
  if (!onLock) return [];
  return [{ label: 'Lock Spotfolio', accelerator: LOCK_MENU_ACCELERATOR, click: () => onLock() }];
}

export function installAppMenu(options: MenuOptions): void {
  Menu.setApplicationMenu(Menu.buildFromTemplate(appMenuTemplate(options)));
}
