import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Slider from '@mui/material/Slider';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import RemoveIcon from '@mui/icons-material/Remove';
import { useTranslation } from 'react-i18next';
import type { EpubReaderPreferences } from '../../../app/preferences';
import {
  EPUB_APPEARANCES,
  EPUB_COLUMNS,
  EPUB_DIRECTIONS,
  EPUB_FONT_SIZE,
  EPUB_LAYOUTS,
  EPUB_LINE_HEIGHT,
  EPUB_NAVIGATIONS,
  EPUB_PAGE_MARGINS,
  saveEpubReaderSettings,
} from '../settings';
import { SettingSelect, SettingsGroup, SettingsSheet, SettingSwitch } from '../SettingsSheet';
import { APPEARANCES, GENERIC_FONTS } from './publication';

export interface EpubSettingsProps {
  open: boolean;
  onClose: () => void;
  settings: EpubReaderPreferences;
  fixedLayout: boolean;
  /** Font families the server provides. */
  serverFonts: readonly string[];
  alwaysFullscreen: boolean;
  fullscreenSupported: boolean;
  onAlwaysFullscreen: (on: boolean) => void;
}

const round = (value: number, step: number) => Math.round(value / step) * step;
/** The select's value for "the publication's own fonts" (no font family set). */
const PUBLISHER_FONT = '\u0000publisher';

function Stepper(props: {
  label: string;
  value: string;
  onDecrease: () => void;
  onIncrease: () => void;
  decreaseLabel: string;
  increaseLabel: string;
  canDecrease: boolean;
  canIncrease: boolean;
}) {
  return (
    <Stack direction="row" sx={{ alignItems: 'center' }}>
      <Typography sx={{ flex: 1 }}>{props.label}</Typography>
      <IconButton onClick={props.onDecrease} disabled={!props.canDecrease} aria-label={props.decreaseLabel}>
        <RemoveIcon />
      </IconButton>
      <Typography sx={{ minWidth: 56, textAlign: 'center' }} aria-live="polite">
        {props.value}
      </Typography>
      <IconButton onClick={props.onIncrease} disabled={!props.canIncrease} aria-label={props.increaseLabel}>
        <AddIcon />
      </IconButton>
    </Stack>
  );
}

/** The EPUB reader's settings (ui.md §11.7); each change applies and is remembered at once. */
export function EpubSettings(props: EpubSettingsProps) {
  const { t } = useTranslation();
  const { settings: s } = props;
  const save = saveEpubReaderSettings;
  // The chosen family stays listed while the server's families load.
  const fonts = [...new Set([...GENERIC_FONTS, ...props.serverFonts, ...(s.fontFamily ? [s.fontFamily] : [])])];
  return (
    <SettingsSheet open={props.open} onClose={props.onClose} title={t('reader.settingsTitle')}>
      <SettingsGroup title={t('reader.groupDisplay')}>
        <Box>
          <Typography id="epub-appearance-label" variant="body2" color="text.secondary" sx={{ mb: 0.5 }}>
            {t('reader.epub.appearance')}
          </Typography>
          <ToggleButtonGroup
            exclusive
            fullWidth
            size="small"
            value={s.appearance}
            onChange={(_, appearance: EpubReaderPreferences['appearance'] | null) => appearance && save({ appearance })}
            aria-labelledby="epub-appearance-label"
          >
            {EPUB_APPEARANCES.map((a) => (
              <ToggleButton key={a} value={a} sx={{ gap: 1, textTransform: 'none' }}>
                <Box
                  aria-hidden
                  sx={{
                    width: 18,
                    height: 18,
                    borderRadius: '50%',
                    border: 1,
                    borderColor: 'divider',
                    bgcolor: APPEARANCES[a].background,
                  }}
                />
                {t(`reader.epub.appearances.${a}`)}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
        </Box>
        {!props.fixedLayout && (
          <SettingSelect
            label={t('reader.epub.layout')}
            value={s.layout}
            options={EPUB_LAYOUTS}
            optionLabel={(l) => t(`reader.epub.layouts.${l}`)}
            onChange={(layout) => save({ layout })}
          />
        )}
        {(props.fixedLayout || s.layout === 'paginated') && (
          <SettingSelect
            label={t('reader.epub.columns')}
            value={s.columns}
            options={EPUB_COLUMNS}
            optionLabel={(c) => t(`reader.epub.columnOptions.${c}`)}
            onChange={(columns) => save({ columns })}
          />
        )}
        {props.fixedLayout && (
          <SettingSelect
            label={t('reader.epub.direction')}
            value={s.direction}
            options={EPUB_DIRECTIONS}
            optionLabel={(d) => t(`reader.epub.directions.${d}`)}
            onChange={(direction) => save({ direction })}
          />
        )}
      </SettingsGroup>
      {!props.fixedLayout && (
        <SettingsGroup title={t('reader.epub.text')}>
          <SettingSelect
            label={t('reader.epub.font')}
            value={s.fontFamily ?? PUBLISHER_FONT}
            options={[PUBLISHER_FONT, ...fonts]}
            optionLabel={(f) =>
              f === PUBLISHER_FONT
                ? t('reader.epub.publisherFont')
                : (GENERIC_FONTS as readonly string[]).includes(f)
                  ? t(`reader.epub.fonts.${f}`)
                  : f
            }
            onChange={(f) => save({ fontFamily: f === PUBLISHER_FONT ? null : f })}
          />
          <Stepper
            label={t('reader.epub.fontSize')}
            value={t('reader.percent', { value: s.fontSize })}
            decreaseLabel={t('reader.epub.smallerText')}
            increaseLabel={t('reader.epub.largerText')}
            canDecrease={s.fontSize > EPUB_FONT_SIZE.min}
            canIncrease={s.fontSize < EPUB_FONT_SIZE.max}
            onDecrease={() => save({ fontSize: Math.max(EPUB_FONT_SIZE.min, s.fontSize - EPUB_FONT_SIZE.step) })}
            onIncrease={() => save({ fontSize: Math.min(EPUB_FONT_SIZE.max, s.fontSize + EPUB_FONT_SIZE.step) })}
          />
          <Stepper
            label={t('reader.epub.lineHeight')}
            value={s.lineHeight.toFixed(1)}
            decreaseLabel={t('reader.epub.tighterLines')}
            increaseLabel={t('reader.epub.looserLines')}
            canDecrease={s.lineHeight > EPUB_LINE_HEIGHT.min + 1e-9}
            canIncrease={s.lineHeight < EPUB_LINE_HEIGHT.max - 1e-9}
            onDecrease={() =>
              save({ lineHeight: Math.max(EPUB_LINE_HEIGHT.min, round(s.lineHeight - EPUB_LINE_HEIGHT.step, 0.1)) })
            }
            onIncrease={() =>
              save({ lineHeight: Math.min(EPUB_LINE_HEIGHT.max, round(s.lineHeight + EPUB_LINE_HEIGHT.step, 0.1)) })
            }
          />
          <Box>
            <Typography id="epub-margins-label" variant="body2">
              {t('reader.epub.pageMargins')}
            </Typography>
            <Slider
              size="small"
              min={EPUB_PAGE_MARGINS.min}
              max={EPUB_PAGE_MARGINS.max}
              step={EPUB_PAGE_MARGINS.step}
              value={s.pageMargins}
              valueLabelDisplay="auto"
              onChange={(_, v) => save({ pageMargins: v as number })}
              aria-labelledby="epub-margins-label"
            />
          </Box>
        </SettingsGroup>
      )}
      <SettingsGroup title={t('reader.groupGeneral')}>
        <SettingSelect
          label={t('reader.epub.navigation')}
          value={s.navigation}
          options={EPUB_NAVIGATIONS}
          optionLabel={(n) => t(`reader.epub.navigations.${n}`)}
          onChange={(navigation) => save({ navigation })}
        />
        <SettingSwitch
          label={t('reader.alwaysFullscreen')}
          checked={props.alwaysFullscreen}
          disabled={!props.fullscreenSupported}
          onChange={props.onAlwaysFullscreen}
        />
      </SettingsGroup>
    </SettingsSheet>
  );
}
