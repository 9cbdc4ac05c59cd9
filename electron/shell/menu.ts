/** The application menu: standard roles, plus developer tools only in unpackaged builds. */
import { Menu, type MenuItemConstructorOptions } from 'electron';

export interface MenuOptions {
  isMac: boolean;
  isPackaged: boolean;
  onShow(): void;
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
        { type: 'separator' },
        options.isMac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    { label: 'View', submenu: view },
    { role: 'windowMenu' },
  ];
}

export function installAppMenu(options: MenuOptions): void {
  Menu.setApplicationMenu(Menu.buildFromTemplate(appMenuTemplate(options)));
}
