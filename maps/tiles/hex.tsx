<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.8" tiledversion="1.8.2" name="hex" tilewidth="56" tileheight="64" tilecount="3" columns="3">
 <image source="../../assets/tiles/hex.png" width="168" height="64"/>
 <tile id="2">
  <properties>
   <property name="blocked" type="bool" value="true"/>
   <property name="terrain" value="rubble"/>
  </properties>
 </tile>
</tileset>
