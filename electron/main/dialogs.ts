// The Open Repository… folder dialog behind `repos.pick` and File › Open Repository….
import { dialog, type BrowserWindow, type OpenDialogOptions } from 'electron';

/** The chosen folder, or null when the user cancelled. Whether it is a git repository is `repos.inspect`'s to say. */
export async function pickRepository(parent: BrowserWindow | null): Promise<string | null> {
  const options: OpenDialogOptions = {
    title: 'Open Repository',
    buttonLabel: 'Open',
    properties: ['openDirectory'],
  };
  // Attached to the window when there is one, so it is a sheet on macOS and modal elsewhere.
  const result = parent && !parent.isDestroyed() ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options);
  if (result.canceled) return null;
  return result.filePaths[0] ?? null;
}
