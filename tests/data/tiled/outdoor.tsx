<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="outdoor" tilewidth="32" tileheight="32" tilecount="4" columns="4">
 <tileoffset x="0" y="4"/>
 <image source="tiles.png" width="128" height="32"/>
 <tile id="1">
  <properties>
   <property name="void" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="2">
  <properties>
   <property name="blocked" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="3" type="figure">
  <properties>
   <property name="walls" value="S"/>
   <property name="life" type="int" value="2"/>
  </properties>
 </tile>
</tileset>
