import { useTranslation } from 'react-i18next';
import type { ReadingDirection, WebReaderPreferences } from '../../app/preferences';
import {
  BACKGROUNDS,
  CONTINUOUS_SCALES,
  PAGED_SCALES,
  PAGE_LAYOUTS,
  PAGE_MARGINS,
  READING_DIRECTIONS,
  SIDE_PADDINGS,
  saveWebReaderSettings,
} from './settings';
import { SettingSelect, SettingsGroup, SettingsSheet, SettingSwitch } from './SettingsSheet';

export interface DivinaSettingsProps {
  open: boolean;
  onClose: () => void;
  settings: WebReaderPreferences;
  direction: ReadingDirection;
  directionFromSeries: boolean;
  onDirection: (direction: ReadingDirection) => void;
  fullscreenSupported: boolean;
  onAlwaysFullscreen: (on: boolean) => void;
}

/** The settings of the paged and continuous readers (ui.md §11.1); each change is remembered at once. */
export function DivinaSettings(props: DivinaSettingsProps) {
  const { t } = useTranslation();
  const { settings } = props;
  const webtoon = props.direction === 'WEBTOON';
  return (
    <SettingsSheet open={props.open} onClose={props.onClose} title={t('reader.settingsTitle')}>
      <SettingsGroup title={t('reader.groupGeneral')}>
        <SettingSelect
          label={t('reader.readingMode')}
          value={props.direction}
          options={READING_DIRECTIONS}
          optionLabel={(d) => t(`reader.directions.${d}`)}
          onChange={props.onDirection}
          helperText={props.directionFromSeries ? t('reader.fromSeriesHelp') : undefined}
        />
        <SettingSwitch
          label={t('reader.animations')}
          checked={settings.animations}
          onChange={(animations) => saveWebReaderSettings({ animations })}
        />
        <SettingSwitch
          label={t('reader.gestures')}
          checked={settings.swipe}
          disabled={webtoon}
          onChange={(swipe) => saveWebReaderSettings({ swipe })}
        />
        <SettingSwitch
          label={t('reader.alwaysFullscreen')}
          checked={settings.alwaysFullscreen}
          disabled={!props.fullscreenSupported}
          onChange={props.onAlwaysFullscreen}
        />
      </SettingsGroup>
      <SettingsGroup title={t('reader.groupDisplay')}>
        <SettingSelect
          label={t('reader.background')}
          value={settings.background}
          options={BACKGROUNDS}
          optionLabel={(b) => t(`reader.backgrounds.${b}`)}
          onChange={(background) => saveWebReaderSettings({ background })}
        />
      </SettingsGroup>
      {webtoon ? (
        <SettingsGroup title={t('reader.groupContinuous')}>
          <SettingSelect
            label={t('reader.scale')}
            value={settings.continuous.scale}
            options={CONTINUOUS_SCALES}
            optionLabel={(s) => t(`reader.continuousScales.${s}`)}
            onChange={(scale) => saveWebReaderSettings({ continuous: { scale } })}
          />
          <SettingSelect
            label={t('reader.sidePadding')}
            value={settings.continuous.padding}
            options={SIDE_PADDINGS}
            optionLabel={(p) => (p === 0 ? t('reader.none') : t('reader.percent', { value: p }))}
            onChange={(padding) => saveWebReaderSettings({ continuous: { padding } })}
          />
          <SettingSelect
            label={t('reader.pageMargin')}
            value={settings.continuous.margin}
            options={PAGE_MARGINS}
            optionLabel={(m) => (m === 0 ? t('reader.none') : t('reader.pixels', { value: m }))}
            onChange={(margin) => saveWebReaderSettings({ continuous: { margin } })}
          />
        </SettingsGroup>
      ) : (
        <SettingsGroup title={t('reader.groupPaged')}>
          <SettingSelect
            label={t('reader.scale')}
            value={settings.paged.scale}
            options={PAGED_SCALES}
            optionLabel={(s) => t(`reader.scales.${s}`)}
            onChange={(scale) => saveWebReaderSettings({ paged: { scale } })}
          />
          <SettingSelect
            label={t('reader.pageLayout')}
            value={settings.paged.pageLayout}
            options={PAGE_LAYOUTS}
            optionLabel={(l) => t(`reader.layouts.${l}`)}
            onChange={(pageLayout) => saveWebReaderSettings({ paged: { pageLayout } })}
          />
        </SettingsGroup>
      )}
    </SettingsSheet>
  );
}
