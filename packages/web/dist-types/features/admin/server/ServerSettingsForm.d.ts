import type { SettingsDto, SettingsUpdateDto } from '@quire/api';
export interface ServerSettingsFormProps {
    settings: SettingsDto;
    saving: boolean;
    /** A failed save, already as a sentence. */
    saveError: string | null;
    onSave: (patch: SettingsUpdateDto) => void;
}
/** Every field of SettingsDto (ui.md §13.2, spec §5). Remount it with fresh settings to start over. */
export declare function ServerSettingsForm({ settings, saving, saveError, onSave }: ServerSettingsFormProps): import("react").JSX.Element;
