<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="walls" tilewidth="32" tileheight="32" tilecount="4" columns="4">
 <image source="../../tiles.png" width="128" height="32"/>
 <tile id="0">
  <objectgroup draworder="index" id="2">
   <object id="1" template="shapes/solid.tx" x="0" y="0"/>
  </objectgroup>
 </tile>
 <tile id="1">
  <objectgroup draworder="index" id="2">
   <object id="1" template="shapes/top_wall.tx" x="0" y="0"/>
  </objectgroup>
 </tile>
</tileset>
